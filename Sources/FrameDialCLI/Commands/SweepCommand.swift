import Controls
import FrameDial
import Vips

/// `framedial sweep IN -o OUT.png --control KEY`: a contact sheet of one picture at several values of
/// one control, each tile labelled with the value.
enum SweepCommand: ExitingAtOnceCommand {
  static let name = "sweep"
  static let summary =
    "Render a contact sheet of the image at several values of one control, each tile labelled."
  static let usage =
    "sweep IN -o OUT.png --control KEY [--values A,B,C | --prominent] [--device NAME] "
    + "[--effort E] [--preset NAME] [--state FILE]… [--set KEY=VALUE]…"
  static let parser = ArgumentParser(
    options: [
      .value("output", short: "o", "OUT", "the contact sheet to write (.png recommended)"),
      EffortOption.option,
      .value("control", "KEY", "the control to sweep: \(ControlSelection.namesDescription)"),
      .value(
        "values", "A,B,C",
        "the values, in order: numbers for a slider (as --set takes them), option names for a picker"
      ),
      .flag(
        "prominent",
        "the slider's prominent values and range ends, at least 5 values, or every picker option (default)"
      ),
      .value(
        "device", "NAME",
        "the capture device whose figures label zoom and exposure: "
          + "a device of framedial devices with camera figures (default iphone-16-pro)"),
      PixelLimitOption.option,
      OverwriteOption.option,
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let (input, output) = try OverwriteOption.inputAndOutput(
      arguments, command: name, outputHint: "OUT.png")
    guard let controlName = arguments.value("control") else {
      throw UsageError("no control given (--control KEY: \(ControlSelection.namesDescription))")
    }
    if arguments.value("values") != nil && arguments.flag("prominent") {
      throw UsageError("give either --values or --prominent, not both")
    }
    let state = try StateOptions.state(from: arguments)
    let effort = try EffortOption.effort(from: arguments) ?? .standard
    let selection: ControlSelection
    let steps: [ControlSelection.Step]
    do {
      let model = try DeviceCatalog.capture(named: arguments.value("device") ?? "iphone-16-pro")
      selection = try ControlSelection(controlName, device: model)
      let values = arguments.value("values").map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      }
      steps = try selection.sweep(from: state, values: values)
    } catch let error as ControlSelectionError {
      throw UsageError("--control \(controlName): \(error.description)")
    } catch {
      throw UsageError("\(error)")
    }
    let load = LoadOptions(pixelLimit: try PixelLimitOption.limit(from: arguments))
    let control: any CaptureControl =
      selection.slider ?? selection.picker ?? selection.controls.grid
    let heading =
      "\(control.title) (\(control.symbolName)): "
      + steps.map(\.label).joined(separator: " · ")
    let layout = try SweepRenderer().renderFile(
      at: input, to: output, steps: steps, heading: heading, load: load, effort: effort)
    console.out(
      "\(input) → \(output) (\(layout.width)×\(layout.height); \(steps.count) tiles of "
        + "\(layout.tileWidth)×\(layout.tileHeight): \(steps.map(\.label).joined(separator: ", ")))"
    )
    return ExitCode.success
  }
}
