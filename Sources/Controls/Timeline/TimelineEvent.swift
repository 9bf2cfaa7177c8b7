import Foundation

/// What a user did: slid a slider to a value, selected an option, or pressed a capture button.
public enum TimelineAction: Sendable, Hashable {
  /// A slide that landed on `value` (for `white-balance`, a temperature in kelvin).
  case slide(ControlKey, value: Double)
  /// A slide of the zoom centre (a pan) to a point, each coordinate 0 … 1; written as a `slide` of
  /// `zoom-center` with `"value": [x, y]`.
  case slideCenter(ZoomCenter)
  /// A selection, named in the state vocabulary (`"mono"`, `"daylight"`, `"4500K"`, `"on"`).
  case select(ControlKey, option: String)
  /// A hardware press.
  case press(CaptureEvent)
}

/// One user event at a time in seconds from the start of the recording.
public struct TimelineEvent: Sendable, Hashable {
  /// Seconds from the start of the timeline (finite, 0 or more).
  public var time: Double
  /// What happened.
  public var action: TimelineAction
  /// For a slide: how the control moves to the value, or nil to land on it at `time` (a keyframe with a
  /// duration; see ``TimelineTransition``).
  public var transition: TimelineTransition?

  /// Creates an event.
  public init(time: Double, action: TimelineAction, transition: TimelineTransition? = nil) {
    self.time = time
    self.action = action
    self.transition = transition
  }
}

extension TimelineAction {
  /// The control the action moves, or nil for a press.
  public var control: ControlKey? {
    switch self {
    case .slide(let control, _), .select(let control, _): control
    case .slideCenter: .zoomCenter
    case .press: nil
    }
  }
}

extension ControlState {
  /// Returns this state with a timeline action applied; grid selections and presses leave it unchanged.
  ///
  /// - Throws: `ControlStateError` naming the key, the value and the allowed range, or
  ///   `TimelineError.unsupportedAction` when the control does not take this kind of action.
  public func applying(_ action: TimelineAction) throws -> ControlState {
    switch action {
    case .slide(let control, let value):
      guard control.acceptsSlide else {
        throw TimelineError.unsupportedAction(control: control.rawValue, action: "slide")
      }
      guard control != .zoomCenter else {
        // The centre slides to a point: `.slideCenter`.
        throw TimelineError.unsupportedAction(control: control.rawValue, action: "number slide")
      }
      guard value.isFinite else {
        throw ControlStateError.notFinite(
          key: control.cliName, value: String(value), allowed: control.allowedValues)
      }
      return try applying(control, text: String(value))
    case .slideCenter(let center):
      for value in [center.x, center.y]
      where !(value.isFinite && ControlState.zoomCenterRange.contains(value)) {
        throw ControlStateError.outOfRange(
          key: ControlKey.zoomCenter.cliName, value: "\(center.x),\(center.y)",
          allowed: ControlKey.zoomCenter.allowedValues)
      }
      var state = self
      state.zoomCenter = center
      return state
    case .select(let control, let option):
      guard control.acceptsSelect else {
        throw TimelineError.unsupportedAction(control: control.rawValue, action: "select")
      }
      return try applying(control, text: option)
    case .press:
      return self
    }
  }
}
