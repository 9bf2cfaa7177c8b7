import Foundation

/// Something a timeline can drive: the standard controls, or a live state without any session.
public protocol TimelineTarget: Sendable {
  /// Performs one user action.
  func perform(_ action: TimelineAction) throws
  /// Replays one recorded action: as `perform(_:)`, except that a slide's value is the value it landed
  /// on when it was recorded, applied exactly (so a replay and `Timeline.state(at:)` agree).
  func replay(_ action: TimelineAction) throws
}

extension TimelineTarget {
  /// By default a replay is a `perform(_:)`.
  public func replay(_ action: TimelineAction) throws { try perform(action) }
}

extension LiveControlState: TimelineTarget {
  /// Applies a slide or selection to the live state; grid selections and presses change nothing.
  ///
  /// - Throws: `ControlStateError` or `TimelineError` when the action's value is not allowed.
  public func perform(_ action: TimelineAction) throws {
    try update { state in state = try state.applying(action) }
  }
}

extension Timeline {
  /// Replays the events into `target`, each once `clock` reaches its time; with a `VirtualClock` the
  /// replay runs as fast as possible, with a `RealTimeClock` at the recorded pace.
  ///
  /// - Parameter onEvent: called after each event is performed, with the event and the clock's reading.
  /// - Throws: the first error from `target`, or `CancellationError` when the task is cancelled.
  public func play(
    on clock: any TimelineClock, into target: any TimelineTarget,
    onEvent: (@Sendable (TimelineEvent, Double) -> Void)? = nil
  ) async throws {
    for event in events {
      try await clock.sleep(until: event.time)
      try target.replay(event.action)
      onEvent?(event, clock.now())
    }
  }
}
