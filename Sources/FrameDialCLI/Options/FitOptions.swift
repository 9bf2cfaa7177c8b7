import FrameDial

/// `--fit DEVICE[:auto|portrait|landscape]` and `--fit-mode cover|contain`, shared by `apply` and `batch`.
enum FitOptions {
  /// `--fit`: a device screen and how it is held (nil: turned to match each picture).
  static let fit = ValueOption<(device: ScreenDevice, orientation: ScreenOrientation?)>(
    StillOptionKey.fit.commandLineName, "DEVICE[:ORIENTATION]", usage: "DEVICE[:O]",
    "size the output for a device screen (see framedial devices), turned to match each picture "
      + "(auto, the default) or held :portrait or :landscape",
    read: screen(parsing:option:))

  /// `--fit-mode`: cover or contain.
  static let mode = ValueOption<ScreenFit.Mode>.choice(
    StillOptionKey.fitMode.commandLineName, value: "MODE",
    "cover (default: fill the screen, centre-crop) or contain (fit inside, no padding)",
    message: .either)

  /// The device screen and orientation `text`, given to `option`, names.
  ///
  /// - Throws: `UsageError` for an unknown device (listing the catalog) or orientation.
  static func screen(parsing text: String, option: String) throws(UsageError) -> (
    device: ScreenDevice, orientation: ScreenOrientation?
  ) {
    do {
      return try ScreenCatalog.screen(text)
    } catch {
      throw UsageError("\(option): \(error.description)")
    }
  }

  /// The options, to add to a command's parser.
  static let options: [any CommandOption] = [fit, mode]

  /// The fit the options describe, or nil without `--fit`.
  ///
  /// - Throws: `UsageError` for an unknown device (listing the catalog), orientation or mode, or a
  ///   `--fit-mode` without `--fit`.
  static func screenFit(from arguments: ParsedArguments) throws(UsageError) -> ScreenFit? {
    let chosenMode = try arguments[mode]
    guard let screen = try arguments[fit] else {
      if chosenMode != nil { throw UsageError("\(mode) needs \(fit) DEVICE") }
      return nil
    }
    return ScreenFit(
      device: screen.device, orientation: screen.orientation, mode: chosenMode ?? .cover)
  }
}
