import Foundation

/// What a user did: slid a slider to a value, selected an option, or pressed a capture button.
public enum TimelineAction: Sendable, Hashable {
  /// A slide that landed on `value` (for `white-balance`, a temperature in kelvin).
  case slide(TimelineControl, value: Double)
  /// A selection, named in the state vocabulary (`"mono"`, `"daylight"`, `"4500K"`, `"on"`).
  case select(TimelineControl, option: String)
  /// A hardware press.
  case press(CaptureEvent)
}

/// One user event at a time in seconds from the start of the recording.
public struct TimelineEvent: Sendable, Hashable {
  /// Seconds from the start of the timeline (finite, 0 or more).
  public var time: Double
  /// What happened.
  public var action: TimelineAction

  /// Creates an event.
  public init(time: Double, action: TimelineAction) {
    self.time = time
    self.action = action
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
      let key = control.stateKey
      guard value.isFinite else {
        throw ControlStateError.notFinite(
          key: key.cliName, value: String(value), allowed: key.allowedValues)
      }
      return try applying(key, text: String(value))
    case .select(let control, let option):
      guard control.acceptsSelect else {
        throw TimelineError.unsupportedAction(control: control.rawValue, action: "select")
      }
      return try applying(control.stateKey, text: option)
    case .press:
      return self
    }
  }
}
