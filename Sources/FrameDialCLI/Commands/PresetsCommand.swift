import Controls
import Foundation
import JSON

/// `framedial presets`: the built-in presets and their control values.
enum PresetsCommand: ListingCommand {
  static let name = "presets"
  static let summary = "List the built-in presets (use with \(StateOptions.preset) NAME)."
  /// `--json`.
  static let json = JSONOption.flag("print the presets as JSON")

  static func printJSON(console: Console) throws {
    let list = Preset.all.map { preset -> JSONText.Value in
      [
        "name": JSONText.Value(preset.name), "summary": JSONText.Value(preset.summary),
        "state": preset.state.jsonValue,
      ]
    }
    // Keys sorted numerically ignoring case, `/` escaped, indented: as it was first written.
    let format = JSONText.Format(
      keys: .sortedNumericCaseInsensitive, numbers: .plain, strings: .escapingSlash,
      indented: true)
    console.outJSON(try JSONText.string(.array(list), format))
  }

  static func printText(console: Console) throws {
    let width = Preset.all.map(\.name.count).max() ?? 0
    for preset in Preset.all {
      let values = String(decoding: try preset.state.jsonData(), as: UTF8.self)
      console.out(
        preset.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + preset.summary)
      console.out(String(repeating: " ", count: width + 2) + values)
    }
  }
}
