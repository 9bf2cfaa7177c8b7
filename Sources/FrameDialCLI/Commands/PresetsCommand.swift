import Controls
import Foundation

/// `framedial presets`: the built-in presets and their control values.
enum PresetsCommand: Command {
  static let name = "presets"
  static let summary = "List the built-in presets (use with \(StateOptions.preset) NAME)."
  /// `--json`.
  static let json = JSONOption.flag("print the presets as JSON")
  static let synopsis = Usage([])
  static let parser = ArgumentParser(options: [json])

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else { throw UsageError("presets takes no arguments") }
    if arguments[Self.json] {
      var list: [[String: Any]] = []
      for preset in Preset.all {
        let state = try JSONSerialization.jsonObject(with: preset.state.jsonData())
        list.append(["name": preset.name, "summary": preset.summary, "state": state])
      }
      let data = try JSONSerialization.data(
        withJSONObject: list, options: [.prettyPrinted, .sortedKeys])
      console.outJSON(String(decoding: data, as: UTF8.self))
      return ExitCode.success
    }
    let width = Preset.all.map(\.name.count).max() ?? 0
    for preset in Preset.all {
      let values = String(decoding: try preset.state.jsonData(), as: UTF8.self)
      console.out(
        preset.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + preset.summary)
      console.out(String(repeating: " ", count: width + 2) + values)
    }
    return ExitCode.success
  }
}
