import CFFmpeg

/// How much damage decoding a video may meet before the file is refused (`--fail-on`), from the most
/// lenient to the strictest; each level refuses what the one before it refuses, and more.
public enum VideoFailOn: String, Sendable, Equatable, CaseIterable {
  /// Refuse nothing: write what the decoder makes of the file, concealed frames and all, up to where
  /// it ends (``VideoDamage`` says what was let through).
  case none
  /// Refuse a stream that ends before its index says it should, or whose demuxer cannot read on (a
  /// packet cut short, a file that ends in the middle of its data).
  case truncated
  /// Also refuse a frame the decoder reports an error in: a packet it refuses, a frame it conceals or
  /// marks corrupt, an error line.
  case error
  /// Also refuse anything the decoder or demuxer warns about, with the decoder's stricter checks on
  /// (bitstream deviations, buffer overreads, checksums).
  case warning

  /// The decoder's `err_recognition` flags for this level and `codec`. From ``error`` on, errors are
  /// refused (`AV_EF_EXPLODE`), at ``warning`` with the stricter checks too. The lenient levels let
  /// the decoders that conceal damage (FFmpeg's error resilience: H.264, MPEG-1, -2 and -4, H.263)
  /// conceal it, which they report; the others, which pass over a part they cannot decode without a
  /// word, report it as an error, let through.
  func errorRecognition(for codec: AVCodecID) -> Int32 {
    switch self {
    case .none, .truncated:
      return Self.conceals(codec) ? AV_EF_CRCCHECK : AV_EF_CRCCHECK | AV_EF_EXPLODE
    case .error: return AV_EF_CRCCHECK | AV_EF_EXPLODE
    case .warning:
      return AV_EF_CRCCHECK | AV_EF_EXPLODE | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_CAREFUL
    }
  }

  /// True for the codecs whose FFmpeg decoders conceal damage (and say so) unless told to refuse it.
  private static func conceals(_ codec: AVCodecID) -> Bool {
    [
      AV_CODEC_ID_H264, AV_CODEC_ID_MPEG1VIDEO, AV_CODEC_ID_MPEG2VIDEO, AV_CODEC_ID_MPEG4,
      AV_CODEC_ID_H263, AV_CODEC_ID_H263P,
    ].contains(codec)
  }
}
