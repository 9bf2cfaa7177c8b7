import FrameDial
import Vips

/// `--format`: the image format written, for `apply` and `batch`; its help lists the formats from
/// ``ImageFormat``.
enum FormatOption {
  /// The option of a command whose format without it is `otherwise`; a format's name or a file
  /// extension in any letter case (`jpg`, `TIF`) is accepted.
  static func option(otherwise: String) -> ValueOption<ImageFormat> {
    let key = StillOptionKey.format
    return ValueOption.choice(
      key.commandLineName, value: "FORMAT", usage: "F", names: key.choices,
      "\(ChoiceMessage.either(key.choices)) (default: \(otherwise))", message: .oneOf,
      lookup: StillOptionKey.format(named:))
  }
}
