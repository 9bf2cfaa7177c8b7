import Foundation

/// The colour space a still is written in (`--profile`), and so the space its controls run in.
///
/// - ``keep`` (the default): the picture stays in its own space. sRGB and untagged pictures are rendered
///   in sRGB; a Display P3 picture (recognised by its profile's colorants and tone curves, never its name)
///   in linear Display P3, its pixels and profile untouched until the controls run; any other RGB profile
///   (Adobe RGB…) is converted to 16-bit Display P3, rendered there and converted back into its own
///   profile, which is embedded (colours of that space beyond P3, such as Adobe RGB's deepest greens,
///   are clipped to P3). CMYK, grey-profiled and unreadable profiles are converted to sRGB as before.
///   With no colour stage to run (the identity state, a zoom alone) the pixels and profile pass through.
/// - ``srgb``: every tagged picture is converted to sRGB, even with no colour stage to run.
/// - ``p3``: every picture is converted to Display P3 (untagged ones are taken as sRGB) and rendered in
///   linear P3; libvips's built-in Display P3 profile is embedded (a P3 input keeps its own).
/// - ``file(path:data:)``: the picture is rendered as ``keep`` renders it, then converted into the RGB
///   profile read from the file, which is embedded.
public enum OutputProfile: Sendable, Equatable, Encodable {
  /// The picture's own space.
  case keep
  /// sRGB.
  case srgb
  /// Display P3.
  case p3
  /// The RGB ICC profile read from `path` (its bytes in `data`).
  case file(path: String, data: Data)

  /// Reads `--profile`'s value: `keep`, `srgb`, `p3` (any letter case) or the path of an RGB display,
  /// input or colour-space ICC profile.
  ///
  /// - Throws: ``RenderError`` naming the file when it cannot be read or is no RGB profile.
  public init(argument: String) throws(RenderError) {
    switch argument.lowercased() {
    case "keep": self = .keep
    case "srgb": self = .srgb
    case "p3", "display-p3": self = .p3
    default:
      guard argument.lowercased().hasSuffix(".icc") || argument.lowercased().hasSuffix(".icm")
      else {
        throw RenderError(
          "'\(argument)' is not a profile: give keep, srgb, p3 or the path of an .icc file")
      }
      let data: Data
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: argument))
      } catch {
        throw RenderError("\(argument): cannot read the ICC profile")
      }
      guard let space = ICCProfile.colourSpace(of: data) else {
        throw RenderError("\(argument): not an ICC profile")
      }
      guard space == "RGB " else {
        throw RenderError(
          "\(argument): a \(space.trimmingCharacters(in: .whitespaces)) profile; "
            + "FrameDial writes RGB outputs only, so --profile takes an RGB profile")
      }
      guard ICCProfile.canConvertInto(data) else {
        throw RenderError(
          "\(argument): pictures cannot be converted into this profile: it has neither RGB "
            + "colorants and tone curves nor a relative colorimetric table from the connection "
            + "space (B2A1)")
      }
      self = .file(path: argument, data: data)
    }
  }

  /// The value as `--profile` takes it.
  public var argument: String {
    switch self {
    case .keep: "keep"
    case .srgb: "srgb"
    case .p3: "p3"
    case .file(let path, _): path
    }
  }

  /// Encoded as its argument; a file also by the hash of its bytes, so a batch rerun after the file
  /// changed redoes its outputs.
  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .file(let path, let data):
      let hash = String(FNV1a.hash(bytes: data), radix: 16)
      try container.encode("\(path) \(hash)")
    default:
      try container.encode(argument)
    }
  }
}
