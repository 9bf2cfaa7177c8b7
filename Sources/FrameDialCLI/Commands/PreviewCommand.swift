import Controls
import FrameDial

/// `framedial preview IN -o OUT.png --device NAME`: a device screen with the processed picture as the
/// viewfinder and the Camera Control overlay beside the control.
enum PreviewCommand: ExitingAtOnceCommand {
  static let name = "preview"
  static let summary =
    "Draw a device screen showing the processed image as the viewfinder, with the Camera Control overlay."
  static let usage =
    "preview IN -o OUT.png [--device NAME] [--orientation portrait|landscape] [--control NAME] [--grid] "
    + "[--no-overlay] [--effort E] [--preset NAME] [--state FILE]… [--set KEY=VALUE]…"
  /// The device drawn when `--device` is not given.
  static let defaultDevice = "iphone-16-pro"
  /// The control the overlay shows when `--control` is not given.
  static let defaultControl = "exposure-bias"
  static let parser = ArgumentParser(
    options: [
      .value("output", short: "o", "OUT", "the picture to write (.png recommended)"),
      EffortOption.option,
      .value("device", "NAME", "a screen from framedial devices (default \(defaultDevice))"),
      .value(
        "orientation", "O", "portrait (default) or landscape (Camera Control on the top edge)"),
      .value(
        "control", "NAME",
        "the control the overlay shows (default \(defaultControl)): \(ControlSelection.namesDescription)"
      ),
      .flag("grid", "draw the rule-of-thirds grid over the viewfinder (as --set grid=on)"),
      .flag("no-overlay", "draw the viewfinder without the Camera Control overlay"),
      PixelLimitOption.option,
      OverwriteOption.option,
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let (input, output) = try OverwriteOption.inputAndOutput(
      arguments, command: name, outputHint: "OUT.png")
    let device: ScreenDevice
    let orientation: ScreenOrientation
    do {
      device = try ScreenCatalog.named(arguments.value("device") ?? defaultDevice)
    } catch {
      throw UsageError(error.description)
    }
    let orientationText = arguments.value("orientation") ?? "portrait"
    guard let chosen = ScreenOrientation(rawValue: orientationText.lowercased()) else {
      throw UsageError("--orientation must be portrait or landscape, not '\(orientationText)'")
    }
    orientation = chosen
    let state = try StateOptions.state(from: arguments)
    let selection = try controlSelection(
      arguments.value("control") ?? defaultControl, screen: device)
    var options = PreviewOptions(
      device: device, orientation: orientation, grid: arguments.flag("grid") || state.grid)
    options.load.pixelLimit = try PixelLimitOption.limit(from: arguments)
    if let effort = try EffortOption.effort(from: arguments) { options.effort = effort }
    if !arguments.flag("no-overlay") {
      options.overlay = selection.overlay(for: state, gridOn: options.grid)
    }
    if !device.hasCameraControl && !arguments.flag("no-overlay") {
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
      throw UsageError("--control: \(error.description)")
    }
  }
}
