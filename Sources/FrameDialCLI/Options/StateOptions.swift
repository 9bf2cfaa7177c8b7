import Controls
import Foundation

/// The options every command that takes control values shares: state files layered in order, then
/// `--set` overrides.
package enum StateOptions {
  /// `--preset`: the state to start from.
  static let preset = ValueOption<String>(
    "preset", "NAME", "start from a built-in preset (see framedial presets)")

  /// `--state`: state files, layered in order.
  static let state = ValueOption<String>(
    "state", "FILE.json", "control values from a JSON state file (several layer in order)",
    repeatable: true)

  /// `--set`: single control values, over the state files.
  static let set = ValueOption<String>(
    "set", "KEY=VALUE",
    "set one control, e.g. ev=0.5, wb=tungsten, zoom=1.5 (wins over \(state))", repeatable: true)

  /// The options, to add to a command's parser.
  package static let options: [any CommandOption] = [preset, state, set]

  /// The options as usage lines show them.
  package static let usage: [UsageTerm] = [.optional(preset), .optional(state), .optional(set)]

  /// The control state the options describe (preset, then state files in order, then `--set` values);
  /// a bad preset, file, key or value is a usage error naming it.
  package static func controlState(from arguments: ParsedArguments) throws(UsageError)
    -> ControlState
  {
    let files = try arguments.all(state).map { URL(fileURLWithPath: $0) }
    let assignments = try arguments.all(set)
    let presetName = try arguments[preset]
    do {
      let base = try presetName.map { name throws(ControlStateError) in
        try Preset.named(name).state
      }
      return try ControlState.layered(
        base: base ?? .identity, stateFileURLs: files, assignments: assignments)
    } catch {
      throw UsageError("\(error)")
    }
  }
}
