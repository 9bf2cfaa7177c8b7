import CFFmpeg

/// Which of an input's streams other than the video a transcode copies: audio and subtitles, as they
/// are, except a subtitle codec the output container cannot hold (mov_text in Matroska, SubRip in
/// MP4), which is left out with a warning as data (a phone's `mebx` timed metadata) and attachment
/// streams are; an audio track FFmpeg does not know (an iPhone's `apac` spatial audio, which FFmpeg
/// 5.1 can neither decode nor copy), or whose codec the container cannot hold while another audio
/// track can be copied, is left out too.
enum CopiedStreams {
  /// Why `stream` of `input` is not copied into a file of `format` (nil: it is; a nil `format` asks
  /// about any container): its kind and codec tag ("data mebx"), or its codec and why.
  static func skipReason(
    _ stream: UnsafeMutablePointer<AVStream>, of input: InputFile,
    into format: UnsafePointer<AVOutputFormat>?
  ) -> String? {
    let parameters = stream.pointee.codecpar.pointee
    let type = parameters.codec_type
    let kind = av_get_media_type_string(type).map { String(cString: $0) } ?? "unknown"
    guard type == AVMEDIA_TYPE_AUDIO || type == AVMEDIA_TYPE_SUBTITLE else {
      return parameters.codec_id == AV_CODEC_ID_NONE
        ? "\(kind) \(tagName(parameters.codec_tag))" : kind
    }
    if type == AVMEDIA_TYPE_AUDIO, parameters.codec_id == AV_CODEC_ID_NONE {
      return "audio \(tagName(parameters.codec_tag)), which FFmpeg cannot decode or copy"
    }
    guard let format, !holds(parameters.codec_id, in: format) else { return nil }
    // The only audio that could be copied still fails the run with advice (OutputFile.checkHolds):
    // the audio is not dropped while another container would keep it.
    if type == AVMEDIA_TYPE_AUDIO, !hasOtherCopiedAudio(than: stream, in: input, into: format) {
      return nil
    }
    let codec = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
    let muxer = format.pointee.name.map { String(cString: $0) } ?? "output"
    return "\(kind) \(codec), which FFmpeg's \(muxer) muxer cannot hold"
  }

  /// The streams of `input` other than its video that are not copied into a file of `format`, as
  /// "stream 2 (data mebx)".
  static func skipped(in input: InputFile, into format: UnsafePointer<AVOutputFormat>?) -> [String]
  {
    input.streams.enumerated().compactMap { index, stream in
      guard index != input.videoIndex, let reason = skipReason(stream, of: input, into: format)
      else {
        return nil
      }
      return "stream \(index) (\(reason))"
    }
  }

  /// True when `input` has an audio stream other than `stream` of a known codec `format` holds.
  private static func hasOtherCopiedAudio(
    than stream: UnsafeMutablePointer<AVStream>, in input: InputFile,
    into format: UnsafePointer<AVOutputFormat>
  ) -> Bool {
    input.streams.contains { other in
      let parameters = other.pointee.codecpar.pointee
      return other != stream && parameters.codec_type == AVMEDIA_TYPE_AUDIO
        && parameters.codec_id != AV_CODEC_ID_NONE && holds(parameters.codec_id, in: format)
    }
  }

  /// False when FFmpeg says `format` cannot hold `codec`; true when it can or does not say.
  private static func holds(_ codec: AVCodecID, in format: UnsafePointer<AVOutputFormat>) -> Bool {
    avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL) != 0
  }

  /// A codec tag as its four characters ("mebx"), or "unknown" for none.
  static func tagName(_ tag: UInt32) -> String {
    guard tag != 0 else { return "unknown" }
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
    guard bytes.allSatisfy({ (0x20..<0x7f).contains($0) }) else { return "unknown" }
    return String(decoding: bytes, as: UTF8.self)
  }
}
