/// The video codecs `framedial video` writes.
public enum VideoCodec: String, Sendable, CaseIterable {
  /// H.264, written with libx264.
  case h264
  /// HEVC (H.265), written with libx265.
  case hevc

  /// The FFmpeg encoder that writes it.
  public var encoderName: String { self == .h264 ? "libx264" : "libx265" }
}

/// How the processed video is encoded.
public struct EncoderSettings: Sendable, Equatable {
  /// The encoder presets of libx264 and libx265, fastest first.
  public static let presets = [
    "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow",
    "placebo",
  ]
  /// The quality range of `crf` (0 is lossless with 8-bit H.264).
  public static let crfRange = 0...51

  /// The codec to write; nil picks the input's family (HEVC stays HEVC, everything else is H.264).
  public var codec: VideoCodec?
  /// Constant rate factor: lower is better and larger. 18 by default.
  public var crf = 18
  /// The encoder preset, one of ``presets``; `medium` by default.
  public var preset = "medium"
  /// What HDR input is written as: kept HDR (the default) or tone-mapped to SDR; SDR input ignores it.
  public var hdr = HDROutput.keep

  /// The default settings: the input's codec family, CRF 18, preset medium.
  public init() {}
}
