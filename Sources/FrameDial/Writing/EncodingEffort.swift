import HEIF

/// How hard the HEIC encoder works for a smaller file at the same quality (`--effort`): x265's preset
/// and the options changed from it. Other formats ignore it (AVIF is written at one AV1 speed).
///
/// Measured against x265 `slow` (libvips's `heifsave`, `small`) at matched luma SSIM on the sample
/// photos and 1024 × 1024 crops of the benchmark's 12-megapixel photos: plain `ultrafast` needed 14–34 %
/// more bytes. Adaptive quantisation at x265's usual strength (the presets below `slow` switch it off)
/// costs little time and brings `fast` to 20–24 % more; 8 × 8 coding units (`ultrafast` stops at
/// 16 × 16), sign hiding and SAO bring `balanced` to 2–5 % more in about 40 % of `slow`'s time.
public enum EncodingEffort: String, Sendable, Equatable, CaseIterable, Encodable {
  /// x265 `ultrafast` with adaptive quantisation: the quickest encode.
  case fast
  /// `fast` with 8 × 8 coding units, sign hiding and SAO: close to `slow`'s quality for its size.
  case balanced
  /// x265 `slow`: the smallest file, the slowest (libvips's `heifsave`).
  case small

  /// FrameDial's default.
  public static let standard = EncodingEffort.fast

  /// The x265 preset that makes this effort.
  var x265Preset: X265Preset {
    switch self {
    case .fast, .balanced: .ultrafast
    case .small: .slow
    }
  }

  /// The x265 options this effort changes from its preset (after libheif's own choices).
  var x265Parameters: [X265Parameter] {
    // x265's usual adaptive quantisation strength, which its presets below `slow` set to 0.
    let adaptiveQuantisation = X265Parameter("aq-strength", "1.0")
    switch self {
    case .fast: return [adaptiveQuantisation]
    case .balanced:
      return [
        adaptiveQuantisation, X265Parameter("min-cu-size", "8"), X265Parameter("signhide", "1"),
        X265Parameter("sao", "1"),
      ]
    case .small: return []
    }
  }

  /// The encoder settings in words, for reports: e.g. "x265 ultrafast, aq-strength 1.0".
  public var x265Description: String {
    (["x265 \(x265Preset.rawValue)"] + x265Parameters.map { "\($0.name) \($0.value)" })
      .joined(separator: ", ")
  }

  /// Encoded as the encoder settings it stands for (``x265Description``), not its name: a batch's
  /// settings record (`RenderSettings`) then tells a HEIC written by an earlier meaning of an effort
  /// from one written by today's, and redoes it.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(x265Description)
  }
}
