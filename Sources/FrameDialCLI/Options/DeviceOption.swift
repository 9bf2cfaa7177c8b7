/// `--device NAME`: the device a command draws or takes figures from (`controls`, `preview`, `sweep`,
/// `studio`); each says which devices it takes and its default.
enum DeviceOption {
  /// The option of a command whose devices `help` describes.
  static func option(_ help: String) -> ValueOption<String> {
    ValueOption("device", "NAME", help)
  }
}
