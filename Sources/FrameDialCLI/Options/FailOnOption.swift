import Controls
import Vips

/// `--fail-on none|truncated|error|warning` for the commands that decode whole files (`apply`, `batch`,
/// `video`): how much damage a decoder may report before the file is refused.
enum FailOnOption {
  /// The option, as those commands list it.
  static let option = ArgumentParser.Option.value(
    "fail-on", LoadOptions.FailOn.allCases.map(\.rawValue).joined(separator: "|"),
    "refuse a file whose decoder reports this or worse (default warning: any damage it notices; "
      + "none writes what could be decoded)")

  /// The level given, or ``LoadOptions/FailOn/warning`` without the option.
  ///
  /// - Throws: `UsageError` naming the value, with the nearest level, when it is not a level.
  static func level(from arguments: ParsedArguments) throws(UsageError) -> LoadOptions.FailOn {
    guard let text = arguments.value("fail-on") else { return .warning }
    guard let level = LoadOptions.FailOn(rawValue: text.lowercased()) else {
      let levels = LoadOptions.FailOn.allCases.map(\.rawValue)
      throw UsageError(
        "--fail-on: "
          + NearestWord.unknown(
            "level", text, among: levels, known: "levels: \(levels.joined(separator: ", "))"))
    }
    return level
  }
}
