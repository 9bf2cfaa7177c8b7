import FrameDial
import Vips

/// `--pixel-limit PIXELS` for the commands that decode images (`apply`, `batch`, `preview`, `sweep`,
/// `studio`, `video`): larger images are refused before they are decoded; `info` describes them and
/// says they are over it.
package enum PixelLimitOption {
  /// The option, as the commands that decode stills list it (`info` and `video` say more of it).
  package static let option = ValueOption.wholeNumber(
    StillOptionKey.pixelLimit.commandLineName, "PIXELS",
    "refuse larger images (default \(LoadOptions.defaultPixelLimit))",
    in: StillOptionKey.pixelLimits)

  /// The limit given, or ``LoadOptions/defaultPixelLimit`` without the option.
  ///
  /// - Throws: `UsageError` for a value that is not a whole number of at least 1.
  package static func limit(from arguments: ParsedArguments) throws(UsageError) -> Int {
    try arguments[option] ?? LoadOptions.defaultPixelLimit
  }
}
