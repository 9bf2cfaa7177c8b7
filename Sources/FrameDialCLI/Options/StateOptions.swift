import Controls
import Foundation

/// The options every command that takes control values shares: state files layered in order, then
/// `--set` overrides.
enum StateOptions {
  /// The options, to add to a command's parser.
  static let options: [ArgumentParser.Option] = [
    .value("preset", "NAME", "start from a built-in preset (see framedial presets)"),
    .value(
      "state", "FILE.json", "control values from a JSON state file (several layer in order)",
      repeatable: true),
    .value(
      "set", "KEY=VALUE", "set one control, e.g. ev=0.5, wb=tungsten, zoom=1.5 (wins over --state)",
      repeatable: true),
  ]

  /// The control state the options describe (preset, then state files in order, then `--set` values);
  /// a bad preset, file, key or value is a usage error naming it.
  static func state(from arguments: ParsedArguments) throws(UsageError) -> ControlState {
    let files = (arguments.values["state"] ?? []).map { URL(fileURLWithPath: $0) }
    do {
      let base = try arguments.value("preset").map { name throws(ControlStateError) in
        try Preset.named(name).state
      }
      return try ControlState.layered(
        base: base ?? .identity, stateFileURLs: files, assignments: arguments.values["set"] ?? [])
    } catch {
      throw UsageError("\(error)")
    }
  }
}
