import Foundation

/// The controls a timeline event can name: the state keys of the standard control set, plus `grid`.
public enum TimelineControl: String, Sendable, Hashable, CaseIterable, Codable {
  /// The system exposure bias slider (`ControlState.exposureBias`).
  case exposureBias = "exposure-bias"
  /// The system zoom slider (`ControlState.zoom`).
  case zoom
  /// The centre of the zoom window (`ControlState.zoomCenter`): slides to a point `[x, y]`, a pan.
  case zoomCenter = "zoom-center"
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
  /// The grid toggle (viewfinder only: `ControlState.grid`, drawn by `preview`).
  case grid

  /// The state key the control changes.
  public var stateKey: ControlKey {
    switch self {
    case .exposureBias: .exposureBias
    case .zoom: .zoom
    case .zoomCenter: .zoomCenter
    case .contrast: .contrast
    case .saturation: .saturation
    case .whiteBalance: .whiteBalance
    case .tint: .tint
    case .filter: .filter
    case .grid: .grid
    }
  }

  /// The control named `name` in a timeline: its identifier, or `temperature` (the temperature slider,
  /// whose slides are white-balance slides).
  public init?(timelineName name: String) {
    if name == "temperature" {
      self = .whiteBalance
    } else if let control = TimelineControl(rawValue: name) {
      self = control
    } else {
      return nil
    }
  }

  /// Whether a `slide` event may name this control.
  public var acceptsSlide: Bool {
    switch self {
    case .exposureBias, .zoom, .zoomCenter, .contrast, .saturation, .whiteBalance, .tint: true
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
