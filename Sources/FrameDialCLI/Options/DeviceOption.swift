import FrameDial

/// `--device NAME`: the device a command draws or takes figures from (`controls`, `preview`, `sweep`,
/// `studio`); each says which devices it takes and its default.
package enum DeviceOption {
  /// The option of a command whose devices `help` describes, read as the name given.
  static func option(_ help: String) -> ValueOption<String> {
    ValueOption(name, "NAME", help)
  }

  /// The option of a command that draws a screen of `framedial devices` (`preview`, `studio`), read as
  /// that screen; `help` describes it.
  package static func screen(_ help: String) -> ValueOption<ScreenDevice> {
    ValueOption(name, "NAME", help) { text, _ throws(UsageError) in try screen(named: text) }
  }

  /// The screen `name` names: a command's default, or the option's value.
  ///
  /// - Throws: `UsageError` listing the catalog when it holds no such screen.
  package static func screen(named name: String) throws(UsageError) -> ScreenDevice {
    do {
      return try ScreenCatalog.named(name)
    } catch {
      throw UsageError(error.description)
    }
  }

  /// The option's name.
  private static let name = "device"
}
