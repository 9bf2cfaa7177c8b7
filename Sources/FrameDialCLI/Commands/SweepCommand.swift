import Controls
import FrameDial
import Vips

/// `framedial sweep IN -o OUT.png --control KEY`: a contact sheet of one picture at several values of
/// one control, each tile labelled with the value.
enum SweepCommand: ExitingAtOnceCommand {
  static let name = "sweep"
  static let summary =
    "Render a contact sheet of the image at several values of one control, each tile labelled."
  /// The capture device whose figures label the tiles when `--device` is not given.
  static let defaultDevice = "iphone-16-pro"
  /// `-o OUT`.
  static let output = OutputOption.option("OUT", "the contact sheet to write (.png recommended)")
  /// `--control`: the control swept.
  static let control = ControlOption.option(
    "KEY", "the control to sweep: \(ControlSelection.namesDescription)")
  /// `--values`: the values swept, in order.
  static let values = ValueOption<[String]>(
    "values", "A,B,C",
    "the values, in order: numbers for a slider (as \(StateOptions.set) takes them), option names for a picker"
  ) { text, _ in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
  /// `--prominent`.
  static let prominent = FlagOption(
    "prominent",
    "the slider's prominent values and range ends, at least 5 values, or every picker option (default)"
  )
  /// `--device`: the capture device whose figures label the values.
  static let device = DeviceOption.option(
    "the capture device whose figures label zoom and exposure: "
      + "a device of framedial devices with camera figures (default \(defaultDevice))")
  static let synopsis = Usage(
    [
      .words("IN"), .option(output, "OUT.png", short: true), .option(control),
      .atMostOneOf([.option(values)], [.option(prominent)]), .optional(device),
      .optional(EffortOption.option),
    ] + StateOptions.usage)
  static let parser = ArgumentParser(
    options: [
      output, EffortOption.option, control, values, prominent, device, PixelLimitOption.option,
      OverwriteOption.option,
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let (input, output) = try OverwriteOption.inputAndOutput(
      arguments, command: name, outputHint: "OUT.png")
    guard let controlName = try arguments[Self.control] else {
      throw UsageError(
        "no control given (\(Self.control) KEY: \(ControlSelection.namesDescription))")
    }
    if arguments.given(Self.values) && arguments[Self.prominent] {
      throw UsageError("give either \(Self.values) or \(Self.prominent), not both")
    }
    let state = try StateOptions.controlState(from: arguments)
    let effort = try arguments[EffortOption.option] ?? .standard
    let selection: ControlSelection
    let steps: [ControlSelection.Step]
    do {
      let model = try DeviceCatalog.capture(named: try arguments[Self.device] ?? defaultDevice)
      selection = try ControlSelection(controlName, device: model)
      let values = try arguments[Self.values]
      steps = try selection.sweep(from: state, values: values)
    } catch let error as ControlSelectionError {
      throw UsageError("\(Self.control) \(controlName): \(error.description)")
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
