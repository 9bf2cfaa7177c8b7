import FrameDial

/// `--fit DEVICE[:auto|portrait|landscape]` and `--fit-mode cover|contain`, shared by `apply` and `batch`.
enum FitOptions {
  /// The options, to add to a command's parser.
  static let options: [ArgumentParser.Option] = [
    .value(
      "fit", "DEVICE[:ORIENTATION]",
      "size the output for a device screen (see framedial devices), turned to match each picture "
        + "(auto, the default) or held :portrait or :landscape"
    ),
    .value(
      "fit-mode", "MODE",
      "cover (default: fill the screen, centre-crop) or contain (fit inside, no padding)"),
  ]

  /// The fit the options describe, or nil without `--fit`.
  ///
  /// - Throws: `UsageError` for an unknown device (listing the catalog), orientation or mode, or a
  ///   `--fit-mode` without `--fit`.
  static func fit(from arguments: ParsedArguments) throws(UsageError) -> ScreenFit? {
    let modeText = arguments.value("fit-mode")
    let mode = try modeText.map { text throws(UsageError) in
      guard let mode = ScreenFit.Mode(rawValue: text.lowercased()) else {
        throw UsageError("--fit-mode must be cover or contain, not '\(text)'")
      }
      return mode
    }
    guard let text = arguments.value("fit") else {
      if modeText != nil { throw UsageError("--fit-mode needs --fit DEVICE") }
      return nil
    }
    do {
      let (device, orientation) = try ScreenCatalog.screen(text)
      return ScreenFit(device: device, orientation: orientation, mode: mode ?? .cover)
    } catch {
      throw UsageError("--fit: \(error.description)")
    }
  }
}
