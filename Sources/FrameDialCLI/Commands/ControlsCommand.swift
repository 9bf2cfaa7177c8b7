import Controls
import Foundation
import FrameDial
import JSON

/// `framedial controls`: the standard control set of a catalog device, in overlay order, as an aligned
/// table or one JSON document.
enum ControlsCommand: Command {
  static let name = "controls"
  static let summary =
    "List a device's controls in overlay order: kind, title, symbol, values, step, prominent values, labels."
  /// The device listed when `--device` is not given: the triple-camera Camera Control phone.
  static let defaultDevice = "iphone-16-pro"
  /// `--device`.
  static let device = DeviceOption.option(
    "a device of framedial devices with camera figures (\(listDevices)) (default \(defaultDevice))")
  /// `--json`.
  static let json = JSONOption.flag(
    "print one JSON array of objects (every key present, null when not applicable)")
  /// `--list-devices`.
  static let listDevices = FlagOption(
    "list-devices", "list the devices with camera figures and whether they have a Camera Control")
  static let synopsis = Usage([])
  static let parser = ArgumentParser(options: [device, json, listDevices])

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else {
      throw UsageError(
        "controls takes no arguments, only \(device) NAME, \(json) and \(listDevices)")
    }
    if arguments[Self.listDevices] {
      let listing = DeviceCatalog.captureDevices.map { model in
        "\(model.id)\t\(model.name)\t"
          + (model.supportsControls ? "Camera Control" : "no Camera Control")
      }
      console.outText(listing.joined(separator: "\n"))
      return ExitCode.success
    }
    let model: CaptureDeviceModel
    let deviceName = try arguments[Self.device] ?? defaultDevice
    do {
      model = try DeviceCatalog.capture(named: deviceName)
    } catch {
      throw UsageError(error.description)
    }
    let controls = try StandardControls(device: CaptureDevice(model: model))
    let descriptions = ControlDescription.describing(controls.all)
    if arguments[Self.json] {
      if !model.supportsControls { console.err(noCameraControlNote(model)) }
      var format = JSONText.Format.canonical
      format.indented = true
      console.outJSON(try JSONText.string(try JSONText.Value(encoding: descriptions), format))
    } else {
      console.outText(heading(model, controls: controls))
      console.out("")
      for line in table(descriptions).lines { console.out(line) }
    }
    return ExitCode.success
  }

  /// The lines above the table: the device, whether it has a Camera Control, and the units.
  static func heading(_ model: CaptureDeviceModel, controls: StandardControls) -> String {
    let count = controls.all.count
    let first =
      model.supportsControls
      ? "\(model.name) (\(model.id)): Camera Control, at most \(model.maxControlsCount) controls; "
        + "the \(count) standard controls in overlay order."
      : noCameraControlNote(model)
    let reach = model.zoomLabel(forFactor: model.zoomRange.upperBound)
    let zoomTop = plain(controls.zoom.values.range.upperBound)
    var text =
      first
      + "\nEvery control and option below is a \(StateOptions.set) key and value, a state-file key and a timeline "
      + "control (temperature sets white-balance to kelvin). Zoom values are the factors the phone "
      + "shows, the picture being the 1× view (zoom=2 is 2×)"
      + (reach == zoomTop + "×"
        ? "." : "; the \(model.name) reaches \(reach), \(StateOptions.set) stops at \(zoomTop)×.")
    let limits = deviceLimits(controls)
    if !limits.isEmpty {
      text += "\nThis device limits " + limits.joined(separator: " and ") + "."
    }
    return text
  }

  /// The state ranges the device's system sliders narrow, read from the sliders themselves, as
  /// "zoom to 1 … 4 (--set takes 1 … 16)".
  static func deviceLimits(_ controls: StandardControls) -> [String] {
    let pairs: [(ControlKey, CaptureSlider, ClosedRange<Double>)] = [
      (.exposureBias, controls.exposureBias, ControlState.exposureBiasRange),
      (.zoom, controls.zoom, ControlState.zoomRange),
    ]
    return pairs.compactMap { key, slider, state in
      let range = slider.values.range
      guard range != state else { return nil }
      return
        "\(key.cliName) to \(plain(range.lowerBound)) … \(plain(range.upperBound)) (\(StateOptions.set) takes "
        + "\(plain(state.lowerBound)) … \(plain(state.upperBound)))"
    }
  }

  /// The note for a device without a Camera Control.
  static func noCameraControlNote(_ model: CaptureDeviceModel) -> String {
    "\(model.name) (\(model.id)) has no Camera Control: no overlay shows these controls, but FrameDial "
      + "models them with the device's figures for \(StateOptions.set), state files and timelines."
  }

  /// The aligned table of `descriptions`.
  static func table(_ descriptions: [ControlDescription]) -> TextTable {
    TextTable(
      header: [
        "CONTROL", "KIND", "TITLE", "SYMBOL", "VALUES", "STEP", "PROMINENT", "FORMAT", "EXAMPLE",
      ],
      rows: descriptions.map { control in
        [
          control.identifier, control.kind, control.title, control.symbol, values(of: control),
          control.step.map(plain) ?? "-",
          control.prominentLabels.isEmpty ? "-" : control.prominentLabels.joined(separator: ", "),
          control.valueFormat ?? (control.options == nil ? "(system label)" : "-"),
          control.example,
        ]
      })
  }

  /// A slider's range or listed values, or a picker's options.
  private static func values(of control: ControlDescription) -> String {
    if let options = control.options { return options.joined(separator: ", ") }
    if let values = control.values { return values.map(plain).joined(separator: ", ") }
    guard let minimum = control.minimum, let maximum = control.maximum else { return "-" }
    let range = "\(plain(minimum)) … \(plain(maximum))"
    guard let labels = control.rangeLabels else { return range }
    return range + " (labelled " + labels.joined(separator: " … ") + ")"
  }

  /// A number without trailing zeros ("0.5", "16", "-150").
  private static func plain(_ value: Double) -> String { String(format: "%g", value) }
}
