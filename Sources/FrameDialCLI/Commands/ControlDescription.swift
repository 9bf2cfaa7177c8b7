import Controls
import Foundation

/// One control of the standard set as `framedial controls` shows it: what it is, the values it takes
/// and how the overlay labels them. Encodes to JSON with every key present (`null` when it does not apply).
package struct ControlDescription: Encodable, Equatable {
  /// The control's identifier (its accessibility identifier: `exposure-bias`, `temperature`, …).
  package var identifier: String
  /// `slider`, `system-zoom-slider`, `system-exposure-bias-slider` or `index-picker`.
  var kind: String
  /// The title shown in the overlay.
  var title: String
  /// The SF Symbols name shown with the control.
  package var symbol: String
  /// A slider's smallest value.
  var minimum: Double?
  /// A slider's largest value.
  var maximum: Double?
  /// The ends of the range as the overlay labels them, where the labels are in other units than the
  /// values (zoom: device factors labelled × the display multiplier).
  var rangeLabels: [String]?
  /// A stepped slider's step.
  var step: Double?
  /// A value-list slider's values.
  var values: [Double]?
  /// A picker's option titles, in index order.
  var options: [String]?
  /// A slider's prominent values (empty for a picker).
  var prominentValues: [Double]
  /// The overlay's labels of the prominent values, in the same order.
  var prominentLabels: [String]
  /// A slider's `localizedValueFormat`; `nil` when it shows its default or system label.
  var valueFormat: String?
  /// A slider's value when the control set is made.
  var defaultValue: Double?
  /// A picker's selected index when the control set is made.
  var defaultIndex: Int?
  /// The overlay's label for the default value or option ("0.5×", "0.0 EV", "As Shot").
  var example: String

  /// Describes a slider.
  init(slider: CaptureSlider) {
    identifier = slider.memoryKey
    kind =
      switch slider.kind {
      case .custom: "slider"
      case .systemZoom: "system-zoom-slider"
      case .systemExposureBias: "system-exposure-bias-slider"
      }
    title = slider.title
    symbol = slider.symbolName
    minimum = slider.values.range.lowerBound
    maximum = slider.values.range.upperBound
    if slider.kind == .systemZoom {
      rangeLabels = [
        slider.formattedValue(slider.values.range.lowerBound),
        slider.formattedValue(slider.values.range.upperBound),
      ]
    }
    switch slider.values {
    case .continuous: break
    case .stepped(_, let step): self.step = step
    case .list(let listed): values = listed
    }
    prominentValues = slider.prominentValues
    prominentLabels = prominentValues.map { slider.formattedValue($0) }
    valueFormat = slider.localizedValueFormat
    defaultValue = slider.value
    example = slider.formattedValue()
  }

  /// Describes an index picker.
  init(picker: CaptureIndexPicker) {
    identifier = picker.memoryKey
    kind = "index-picker"
    title = picker.title
    symbol = picker.symbolName
    options = picker.localizedIndexTitles
    prominentValues = []
    prominentLabels = []
    defaultIndex = picker.selectedIndex
    example = picker.localizedIndexTitles[picker.selectedIndex]
  }

  /// Describes each slider and picker of `controls`, in order.
  package static func describing(_ controls: [any CaptureControl]) -> [ControlDescription] {
    controls.compactMap { control in
      if let slider = control as? CaptureSlider { return ControlDescription(slider: slider) }
      if let picker = control as? CaptureIndexPicker { return ControlDescription(picker: picker) }
      return nil
    }
  }

  private enum CodingKeys: String, CodingKey {
    case identifier, kind, title, symbol, minimum, maximum, rangeLabels, step, values, options
    case prominentValues, prominentLabels, valueFormat, defaultValue, defaultIndex, example
  }

  /// Encodes every key, writing `null` for a value that does not apply.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(identifier, forKey: .identifier)
    try container.encode(kind, forKey: .kind)
    try container.encode(title, forKey: .title)
    try container.encode(symbol, forKey: .symbol)
    try container.encode(minimum, forKey: .minimum)
    try container.encode(maximum, forKey: .maximum)
    try container.encode(rangeLabels, forKey: .rangeLabels)
    try container.encode(step, forKey: .step)
    try container.encode(values, forKey: .values)
    try container.encode(options, forKey: .options)
    try container.encode(prominentValues, forKey: .prominentValues)
    try container.encode(prominentLabels, forKey: .prominentLabels)
    try container.encode(valueFormat, forKey: .valueFormat)
    try container.encode(defaultValue, forKey: .defaultValue)
    try container.encode(defaultIndex, forKey: .defaultIndex)
    try container.encode(example, forKey: .example)
  }
}
