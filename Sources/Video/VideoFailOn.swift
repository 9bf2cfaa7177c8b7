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

  /// The decoder's `err_recognition` flags for this level: FFmpeg's default (checksums) for the
  /// lenient levels, which conceal what they can; refusing errors (`AV_EF_EXPLODE`) from `error` on.
  var errorRecognition: Int32 {
    switch self {
    case .none, .truncated: return AV_EF_CRCCHECK
    case .error: return AV_EF_CRCCHECK | AV_EF_EXPLODE
    case .warning:
      return AV_EF_CRCCHECK | AV_EF_EXPLODE | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_CAREFUL
    }
  }
}
