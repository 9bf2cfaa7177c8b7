import FrameDial
import Vips

/// `--fail-on none|truncated|error|warning` for the commands that decode whole files (`apply`, `batch`,
/// `video`): how much damage a decoder may report before the file is refused.
package enum FailOnOption {
  /// The option, as those commands list it: its levels come from ``LoadOptions/FailOn``; a name that is
  /// not a level is refused with the nearest level.
  package static let option = ValueOption<LoadOptions.FailOn>.choice(
    StillOptionKey.failOn.commandLineName, usage: "LEVEL",
    "refuse a file whose decoder reports this or worse (default warning: any damage it notices; "
      + "none writes what could be decoded)",
    message: .unknown("level"))

  /// The level given, or ``LoadOptions/FailOn/warning`` without the option.
  ///
  /// - Throws: `UsageError` naming the value, with the nearest level, when it is not a level.
  package static func level(from arguments: ParsedArguments) throws(UsageError)
    -> LoadOptions.FailOn
  {
    try arguments[option] ?? .warning
  }
}
