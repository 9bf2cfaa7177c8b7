/// `--control`: the control `preview`'s overlay shows or `sweep` sweeps.
enum ControlOption {
  /// The option of a command that calls the control's name `valueName`, with `help`.
  static func option(_ valueName: String, _ help: String) -> ValueOption<String> {
    ValueOption("control", valueName, help)
  }
}
