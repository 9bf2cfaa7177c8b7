import Controls
import Foundation

/// One control of the standard set chosen by name (`--control`), with what the overlay shows for it and
/// the states a sweep renders.
public struct ControlSelection: Sendable {
  /// A labelled state of a sweep.
  public struct Step: Sendable, Equatable {
    /// The overlay's label for the value ("+1.0 EV", "Mono").
    public var label: String
    /// The state rendered for it.
    public var state: ControlState
  }

  /// The chosen control.
  public let control: ControlDescriptor.Control
  /// The standard controls of the device, which label the values.
  public let controls: StandardControls

  /// Every accepted name with its alias, for help and errors.
  public static var namesDescription: String {
    let controls = ControlKey.controls
    return controls.map(\.name).joined(separator: ", ") + " (aliases "
      + controls.flatMap(\.aliases).joined(separator: ", ") + ")"
  }

  /// Chooses control `name` from `device`'s standard controls.
  ///
  /// - Throws: ``ControlSelectionError`` for an unknown name or a device whose figures make no controls.
  public init(_ name: String, device: CaptureDeviceModel) throws(ControlSelectionError) {
    guard let chosen = ControlKey.control(named: name) else {
      throw .unknownControl(name, known: Self.namesDescription)
    }
    control = chosen
    do {
      controls = try StandardControls(device: CaptureDevice(model: device))
    } catch {
      throw .invalidValue("\(device.id): \(error)")
    }
  }

  /// The slider, when the control is one.
  public var slider: CaptureSlider? { controls.control(named: control.name) as? CaptureSlider }

  /// The picker, when the control is one.
  public var picker: CaptureIndexPicker? {
    controls.control(named: control.name) as? CaptureIndexPicker
  }

  /// What the overlay shows for this control when the picture has `state` and the grid is `gridOn`.
  public func overlay(for state: ControlState, gridOn: Bool = false) -> OverlayContent? {
    if let slider {
      let value = sliderValue(in: state)
      let marks = slider.prominentValues.map {
        OverlayContent.Mark(value: $0, label: slider.formattedValue($0))
      }
      return OverlayContent(
        title: slider.title, symbolName: slider.symbolName,
        valueText: slider.formattedValue(value),
        body: .scale(
          OverlayContent.Scale(
            range: slider.values.range, value: value, marks: marks,
            spacing: control.spacing)))
    }
    guard let picker else { return nil }
    let index = pickerIndex(in: state, gridOn: gridOn)
    let titles = picker.localizedIndexTitles
    return OverlayContent(
      title: picker.title, symbolName: picker.symbolName,
      valueText: titles[min(max(index, 0), titles.count - 1)],
      body: .options(titles, selected: index))
  }

  /// The fewest tiles a slider's default sweep shows.
  public static let minimumSliderSteps = 5

  /// The states of a sweep from `base`: `values` in order (numbers for a slider, option names for a
  /// picker), or when nil the default — a slider's prominent values and both ends of its range, with the
  /// quarter points of the range added (on the zoom's logarithmic scale) when that gives fewer than
  /// ``minimumSliderSteps``, in ascending order; every option of a picker in order (white balance's
  /// "Kelvin" at the temperature `base` has, or the neutral 5500 K).
  ///
  /// - Throws: ``ControlSelectionError`` for the grid (it does not change the picture) or a bad value.
  public func sweep(from base: ControlState, values: [String]? = nil) throws(ControlSelectionError)
    -> [Step]
  {
    if let slider {
      guard let values else {
        let range = slider.values.range
        var marks = Set(slider.prominentValues + [range.lowerBound, range.upperBound])
        if marks.count < Self.minimumSliderSteps {
          for quarter in [0.25, 0.5, 0.75] {
            let value =
              control.spacing == .logarithmic
              ? range.lowerBound * pow(range.upperBound / range.lowerBound, quarter)
              : range.lowerBound + (range.upperBound - range.lowerBound) * quarter
            marks.insert(slider.values.nearestValue(to: value))
          }
        }
        return marks.sorted().map {
          Step(label: slider.formattedValue($0), state: setting($0, on: base))
        }
      }
      return try values.map { text throws(ControlSelectionError) in
        let state = try parsed(text, on: base)
        return Step(label: slider.formattedValue(sliderValue(in: state)), state: state)
      }
    }
    guard let picker, !control.isViewfinderOnly else { throw .notAPictureControl(control.name) }
    let texts =
      values
      ?? picker.localizedIndexTitles.map { title in
        // "Kelvin" is a temperature: the one in `base`, or the neutral one.
        guard control.key == .whiteBalance, title == StandardControls.whiteBalanceTitles.last else {
          return title
        }
        if case .kelvin(let kelvin) = base.whiteBalance { return "\(kelvin)" }
        return "\(StandardControls.neutralKelvin)"
      }
    return try texts.map { text throws(ControlSelectionError) in
      let state = try parsed(text, on: base)
      let index = pickerIndex(in: state, gridOn: false)
      if case .kelvin(let kelvin) = state.whiteBalance, control.key == .whiteBalance {
        return Step(label: controls.temperature.formattedValue(kelvin), state: state)
      }
      return Step(label: picker.localizedIndexTitles[index], state: state)
    }
  }

  /// The slider's value in `state` (temperature: the white balance's kelvin, or the neutral 5500 K).
  func sliderValue(in state: ControlState) -> Double {
    switch control.key.descriptor.kind {
    case .number(_, _, let value): state[keyPath: value]
    case .whiteBalance:
      switch state.whiteBalance {
      case .kelvin(let kelvin): kelvin
      case .preset(let preset): preset.kelvin
      case .none, .auto: StandardControls.neutralKelvin
      }
    case .point, .filter, .toggle: 0
    }
  }

  /// The picker's selected index in `state`.
  func pickerIndex(in state: ControlState, gridOn: Bool) -> Int {
    switch control.key.descriptor.kind {
    case .whiteBalance:
      switch state.whiteBalance {
      case .none: 0
      case .auto: 1
      case .preset(let preset): (WhiteBalancePreset.allCases.firstIndex(of: preset) ?? 0) + 2
      case .kelvin: StandardControls.whiteBalanceTitles.count - 1
      }
    case .filter: Filter.allCases.firstIndex(of: state.filter) ?? 0
    case .toggle: gridOn ? 1 : 0
    case .number, .point: 0
    }
  }

  /// `base` with the slider set to `value`.
  func setting(_ value: Double, on base: ControlState) -> ControlState {
    var state = base
    switch control.key.descriptor.kind {
    case .number(_, _, let target): state[keyPath: target] = value
    case .whiteBalance: state.whiteBalance = .kelvin(value)
    case .point, .filter, .toggle: break
    }
    return state
  }

  /// `base` with one value of the control read from `text`, checked as `--set` checks it. A picker also
  /// takes its option titles ("As Shot").
  func parsed(_ text: String, on base: ControlState) throws(ControlSelectionError) -> ControlState {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let key = control.key
    if let picker,
      let index = picker.localizedIndexTitles.firstIndex(where: {
        $0.lowercased() == trimmed.lowercased()
      })
    {
      switch key {
      case .whiteBalance where index == 0: return Self.set(.whiteBalance, "none", on: base)
      case .whiteBalance where index < StandardControls.whiteBalanceTitles.count - 1:
        return Self.set(.whiteBalance, trimmed, on: base)
      default: break
      }
    }
    if control.isViewfinderOnly { throw .notAPictureControl(control.name) }
    if key == .whiteBalance, slider != nil {
      // The temperature slider takes kelvin only.
      let digits = trimmed.lowercased().hasSuffix("k") ? String(trimmed.dropLast()) : trimmed
      guard Double(digits) != nil else {
        throw .invalidValue("\(control.name) takes kelvin values such as 4500, not '\(text)'")
      }
    }
    do {
      return try base.applying(key, text: trimmed)
    } catch {
      throw .invalidValue(error.description)
    }
  }

  private static func set(_ key: ControlKey, _ text: String, on base: ControlState) -> ControlState
  {
    (try? base.applying(key, text: text)) ?? base
  }
}

/// A control name or value that cannot be used.
public enum ControlSelectionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No control has this name.
  case unknownControl(String, known: String)
  /// The control does not change the picture (the grid), so it cannot be swept.
  case notAPictureControl(String)
  /// A value outside the control's values, with the reason.
  case invalidValue(String)

  /// The message.
  public var description: String {
    switch self {
    case .unknownControl(let name, let known):
      NearestWord.unknown(
        "control", name, among: ControlKey.controls.flatMap { [$0.name] + $0.aliases },
        known: "use one of \(known)")
    case .notAPictureControl(let name):
      "\(name) does not change the picture (it only shows in the viewfinder); sweep another control"
    case .invalidValue(let message): message
    }
  }
}
