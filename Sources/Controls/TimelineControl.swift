import Foundation

/// The controls a timeline event can name: the state keys of the standard control set, plus `grid`.
public enum TimelineControl: String, Sendable, Hashable, CaseIterable, Codable {
  /// The system exposure bias slider (`ControlState.exposureBias`).
  case exposureBias = "exposure-bias"
  /// The system zoom slider (`ControlState.zoom`).
  case zoom
  /// The contrast slider.
  case contrast
  /// The saturation slider.
  case saturation
  /// White balance: a slide sets a temperature in kelvin, a selection a white-balance value.
  case whiteBalance = "white-balance"
  /// The tint slider.
  case tint
  /// The filter picker.
  case filter
  /// The grid toggle (viewfinder only: it does not change `ControlState`).
  case grid

  /// The state key the control changes, or `nil` for the grid.
  public var stateKey: ControlKey? { ControlKey(rawValue: rawValue) }

  /// Whether a `slide` event may name this control.
  public var acceptsSlide: Bool {
    switch self {
    case .exposureBias, .zoom, .contrast, .saturation, .whiteBalance, .tint: true
    case .filter, .grid: false
    }
  }

  /// Whether a `select` event may name this control.
  public var acceptsSelect: Bool {
    switch self {
    case .whiteBalance, .filter, .grid: true
    default: false
    }
  }

  /// The options of the grid toggle, off first.
  public static let gridOptions = ["off", "on"]
}
