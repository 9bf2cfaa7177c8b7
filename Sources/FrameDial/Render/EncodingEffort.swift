import HEIF

/// How hard the HEIC encoder works for a smaller file at the same quality (`--effort`): x265's preset.
/// Other formats ignore it (AVIF stays on libvips's own settings).
public enum EncodingEffort: String, Sendable, Equatable, CaseIterable, Encodable {
  /// x265 `ultrafast`: the quickest encode, the largest file.
  case fast
  /// x265 `superfast`.
  case balanced
  /// x265 `slow`: the smallest file, the slowest.
  case small

  /// FrameDial's default.
  public static let standard = EncodingEffort.fast

  /// The x265 preset that makes this effort.
  var x265Preset: X265Preset {
    switch self {
    case .fast: .ultrafast
    case .balanced: .superfast
    case .small: .slow
    }
  }
}
