/// `--json`: a command's output as JSON on standard output (`batch`, `controls`, `devices`, `info`,
/// `presets`, `video`); each says what its JSON is.
package enum JSONOption {
  /// The flag of a command whose JSON `help` describes.
  package static func flag(_ help: String) -> FlagOption {
    FlagOption("json", help)
  }
}
