import Controls
import Foundation

/// One control of the standard set chosen by name (`--control`), with what the overlay shows for it and
/// the states a sweep renders.
public struct ControlSelection: Sendable {
  /// The controls that can be chosen, by their command-line names.
  public enum Name: String, Sendable, CaseIterable {
    /// The system exposure bias slider (alias `ev`).
    case exposureBias = "exposure-bias"
    /// The system zoom slider.
    case zoom
    /// The contrast slider.
    case contrast
    /// The saturation slider.
    case saturation
    /// The white-balance picker (alias `wb`).
    case whiteBalance = "white-balance"
    /// The colour-temperature slider (white balance in kelvin).
    case temperature
    /// The tint slider.
    case tint
    /// The filter picker.
    case filter
    /// The grid toggle (viewfinder only).
    case grid

    /// Finds a name or alias, ignoring case.
    init?(text: String) {
      switch text.lowercased() {
      case "ev": self = .exposureBias
      case "wb": self = .whiteBalance
      default: self.init(rawValue: text.lowercased())
      }
    }
  }

  /// A labelled state of a sweep.
  public struct Step: Sendable, Equatable {
    /// The overlay's label for the value ("+1.0 EV", "Mono").
    public var label: String
    /// The state rendered for it.
    public var state: ControlState
  }

  /// The chosen control.
  public let name: Name
  /// The standard controls of the device, which label the values.
  public let controls: StandardControls

  /// Every accepted name with its alias, for help and errors.
  public static var namesDescription: String {
    Name.allCases.map(\.rawValue).joined(separator: ", ") + " (aliases ev, wb)"
  }

  /// Chooses control `name` from `device`'s standard controls.
  ///
  /// - Throws: ``ControlSelectionError`` for an unknown name or a device whose figures make no controls.
  public init(_ name: String, device: CaptureDeviceModel) throws(ControlSelectionError) {
    guard let chosen = Name(text: name) else {
      throw .unknownControl(name, known: Self.namesDescription)
    }
    self.name = chosen
    do {
      controls = try StandardControls(device: CaptureDevice(model: device))
    } catch {
      throw .invalidValue("\(device.id): \(error)")
    }
  }

  /// The slider, when the control is one.
  public var slider: CaptureSlider? {
    switch name {
    case .exposureBias: controls.exposureBias
    case .zoom: controls.zoom
    case .contrast: controls.contrast
    case .saturation: controls.saturation
    case .temperature: controls.temperature
    case .tint: controls.tint
    case .whiteBalance, .filter, .grid: nil
    }
  }

  /// The picker, when the control is one.
  public var picker: CaptureIndexPicker? {
    switch name {
    case .whiteBalance: controls.whiteBalance
    case .filter: controls.filter
    case .grid: controls.grid
    default: nil
    }
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
            spacing: name == .zoom ? .logarithmic : name == .temperature ? .mired : .linear)))
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
              name == .zoom
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
    guard let picker, name != .grid else { throw .notAPictureControl(name.rawValue) }
    let texts =
      values
      ?? picker.localizedIndexTitles.map { title in
        // "Kelvin" is a temperature: the one in `base`, or the neutral one.
        guard name == .whiteBalance, title == StandardControls.whiteBalanceTitles.last else {
          return title
        }
        if case .kelvin(let kelvin) = base.whiteBalance { return "\(kelvin)" }
        return "\(StandardControls.neutralKelvin)"
      }
    return try texts.map { text throws(ControlSelectionError) in
      let state = try parsed(text, on: base)
      let index = pickerIndex(in: state, gridOn: false)
      if case .kelvin(let kelvin) = state.whiteBalance, name == .whiteBalance {
        return Step(label: controls.temperature.formattedValue(kelvin), state: state)
      }
      return Step(label: picker.localizedIndexTitles[index], state: state)
    }
  }

  /// The slider's value in `state` (temperature: the white balance's kelvin, or the neutral 5500 K).
  func sliderValue(in state: ControlState) -> Double {
    switch name {
    case .exposureBias: state.exposureBias
    case .zoom: state.zoom
    case .contrast: state.contrast
    case .saturation: state.saturation
    case .tint: state.tint
    case .temperature:
      switch state.whiteBalance {
      case .kelvin(let kelvin): kelvin
      case .preset(let preset): preset.kelvin
      case .none, .auto: StandardControls.neutralKelvin
      }
    case .whiteBalance, .filter, .grid: 0
    }
  }

  /// The picker's selected index in `state`.
  func pickerIndex(in state: ControlState, gridOn: Bool) -> Int {
    switch name {
    case .whiteBalance:
      switch state.whiteBalance {
      case .none: 0
      case .auto: 1
      case .preset(let preset): (WhiteBalancePreset.allCases.firstIndex(of: preset) ?? 0) + 2
      case .kelvin: StandardControls.whiteBalanceTitles.count - 1
      }
    case .filter: Filter.allCases.firstIndex(of: state.filter) ?? 0
    case .grid: gridOn ? 1 : 0
    default: 0
    }
  }

  /// `base` with the slider set to `value`.
  func setting(_ value: Double, on base: ControlState) -> ControlState {
    var state = base
    switch name {
    case .exposureBias: state.exposureBias = value
    case .zoom: state.zoom = value
    case .contrast: state.contrast = value
    case .saturation: state.saturation = value
    case .tint: state.tint = value
    case .temperature: state.whiteBalance = .kelvin(value)
    case .whiteBalance, .filter, .grid: break
    }
    return state
  }

  /// `base` with one value of the control read from `text`, checked as `--set` checks it. A picker also
  /// takes its option titles ("As Shot").
  func parsed(_ text: String, on base: ControlState) throws(ControlSelectionError) -> ControlState {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let picker,
      let index = picker.localizedIndexTitles.firstIndex(where: {
        $0.lowercased() == trimmed.lowercased()
      })
    {
      switch name {
      case .whiteBalance where index == 0: return Self.set(.whiteBalance, "none", on: base)
      case .whiteBalance where index < StandardControls.whiteBalanceTitles.count - 1:
        return Self.set(.whiteBalance, trimmed, on: base)
      default: break
      }
    }
    let key: ControlKey
    switch name {
    case .exposureBias: key = .exposureBias
    case .zoom: key = .zoom
    case .contrast: key = .contrast
    case .saturation: key = .saturation
    case .tint: key = .tint
    case .filter: key = .filter
    case .whiteBalance: key = .whiteBalance
    case .temperature:
      let digits = trimmed.lowercased().hasSuffix("k") ? String(trimmed.dropLast()) : trimmed
      guard Double(digits) != nil else {
        throw .invalidValue("temperature takes kelvin values such as 4500, not '\(text)'")
      }
      key = .whiteBalance
    case .grid: throw .notAPictureControl(name.rawValue)
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
    case .unknownControl(let name, let known): "unknown control '\(name)'; use one of \(known)"
    case .notAPictureControl(let name):
      "\(name) does not change the picture (it only shows in the viewfinder); sweep another control"
    case .invalidValue(let message): message
    }
  }
}
