import CFFmpeg

/// Which of an input's streams other than the video a transcode copies: audio and subtitles, as they
/// are, except a subtitle codec the output container cannot hold (mov_text in Matroska, SubRip in
/// MP4), which is left out with a warning as data and attachment streams are.
enum CopiedStreams {
  /// Why `stream` is not copied into a file of `format` (nil: it is; a nil `format` asks about any
  /// container): its kind ("data"), or its subtitle codec and the muxer that cannot hold it.
  static func skipReason(
    _ stream: UnsafeMutablePointer<AVStream>, into format: UnsafePointer<AVOutputFormat>?
  ) -> String? {
    let parameters = stream.pointee.codecpar.pointee
    let type = parameters.codec_type
    let kind = av_get_media_type_string(type).map { String(cString: $0) } ?? "unknown"
    guard type == AVMEDIA_TYPE_AUDIO || type == AVMEDIA_TYPE_SUBTITLE else { return kind }
    // An audio codec the container cannot hold still fails the run: the audio is not dropped.
    guard type == AVMEDIA_TYPE_SUBTITLE, let format,
      avformat_query_codec(format, parameters.codec_id, FF_COMPLIANCE_NORMAL) == 0
    else { return nil }
    let codec = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
    let muxer = format.pointee.name.map { String(cString: $0) } ?? "output"
    return "\(kind) \(codec), which FFmpeg's \(muxer) muxer cannot hold"
  }

  /// The streams of `input` other than its video that are not copied into a file of `format`, as
  /// "stream 2 (data)".
  static func skipped(in input: InputFile, into format: UnsafePointer<AVOutputFormat>?) -> [String]
  {
    input.streams.enumerated().compactMap { index, stream in
      guard index != input.videoIndex, let reason = skipReason(stream, into: format) else {
        return nil
      }
      return "stream \(index) (\(reason))"
    }
  }
}
