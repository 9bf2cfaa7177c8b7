import Controls
import FrameDial

/// `framedial preview IN -o OUT.png --device NAME`: a device screen with the processed picture as the
/// viewfinder and the Camera Control overlay beside the control.
enum PreviewCommand: ExitingAtOnceCommand {
  static let name = "preview"
  static let summary =
    "Draw a device screen showing the processed image as the viewfinder, with the Camera Control overlay."
  /// The device drawn when `--device` is not given.
  static let defaultDevice = "iphone-16-pro"
  /// The control the overlay shows when `--control` is not given.
  static let defaultControl = "exposure-bias"
  /// `-o OUT`.
  static let output = OutputOption.option("OUT", "the picture to write (.png recommended)")
  /// `--device`: the screen drawn.
  static let device = DeviceOption.screen(
    "a screen from framedial devices (default \(defaultDevice))")
  /// `--orientation`.
  static let orientation = ValueOption<ScreenOrientation>.choice(
    "orientation", value: "O", usage: ValueOption<ScreenOrientation>.names.joined(separator: "|"),
    "portrait (default) or landscape (Camera Control on the top edge)", message: .either)
  /// `--control`: the control the overlay shows.
  static let control = ControlOption.option(
    "NAME",
    "the control the overlay shows (default \(defaultControl)): \(ControlSelection.namesDescription)"
  )
  /// `--grid`.
  static let grid = FlagOption(
    "grid", "draw the rule-of-thirds grid over the viewfinder (as \(StateOptions.set) grid=on)")
  /// `--no-overlay`.
  static let noOverlay = FlagOption(
    "no-overlay", "draw the viewfinder without the Camera Control overlay")
  static let synopsis = Usage(
    [
      .words("IN"), .option(output, "OUT.png", short: true), .optional(device),
      .optional(orientation), .optional(control), .optional(grid), .optional(noOverlay),
      .optional(EffortOption.option),
    ] + StateOptions.usage)
  static let parser = ArgumentParser(
    options: [
      output, EffortOption.option, device, orientation, control, grid, noOverlay,
      PixelLimitOption.option, OverwriteOption.option,
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let (input, output) = try OverwriteOption.inputAndOutput(
      arguments, command: name, outputHint: "OUT.png")
    let device = try arguments[Self.device] ?? DeviceOption.screen(named: defaultDevice)
    let orientation = try arguments[Self.orientation] ?? .portrait
    let state = try StateOptions.controlState(from: arguments)
    let selection = try controlSelection(
      try arguments[Self.control] ?? defaultControl, screen: device)
    var options = PreviewOptions(
      device: device, orientation: orientation, grid: arguments[Self.grid] || state.grid)
    options.load.pixelLimit = try PixelLimitOption.limit(from: arguments)
    if let effort = try arguments[EffortOption.option] { options.effort = effort }
    if !arguments[Self.noOverlay] {
      options.overlay = selection.overlay(for: state, gridOn: options.grid)
    }
    if !device.hasCameraControl && !arguments[Self.noOverlay] {
      console.err(
        "\(device.name) has no Camera Control: the preview shows the viewfinder without the overlay."
      )
    }
    let layout = try PreviewRenderer().renderFile(
      at: input, to: output, state: state, options: options)
    var line =
      "\(input) → \(output) (\(layout.screen.width)×\(layout.screen.height) \(device.name) "
      + "\(orientation.rawValue); viewfinder \(layout.viewfinder)"
    if let region = layout.overlay, options.overlay != nil { line += "; overlay \(region)" }
    console.out(line + ")")
    return ExitCode.success
  }

  /// The named control of the device's standard controls (a device without its own capture figures
  /// uses the iPhone 16 Pro's); an unknown name is a usage error.
  static func controlSelection(_ name: String, screen: ScreenDevice) throws(UsageError)
    -> ControlSelection
  {
    do {
      return try ControlSelection(name, device: screen.capture ?? .iPhone16Pro)
    } catch {
      throw UsageError("\(Self.control): \(error.description)")
    }
  }
}
