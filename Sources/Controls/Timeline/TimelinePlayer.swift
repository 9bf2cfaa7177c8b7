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
  /// A keyframed slide (an event with a ``TimelineTransition``) is replayed as the values of its move
  /// (see ``TimelinePlayhead``): one slide of the control every `moveStep` seconds from the event's time,
  /// and its exact end value when the move ends. Moves start from the values a playhead following the
  /// events from `base` holds, so `base` should be the target's state when the replay starts.
  ///
  /// - Parameters:
  ///   - clock: the clock the events' times are read on.
  ///   - target: what performs the events.
  ///   - base: the target's state when the replay starts.
  ///   - moveStep: seconds between the slides that replay a keyframed move (1/60 when not positive).
  ///   - onEvent: called after each event is performed, with the event and the clock's reading.
  /// - Throws: the first error from `target`, `TimelineError.inapplicable` for a move that cannot be
  ///   made, or `CancellationError` when the task is cancelled.
  public func play(
    on clock: any TimelineClock, into target: any TimelineTarget, base: ControlState = .identity,
    moveStep: Double = 1.0 / 60, onEvent: (@Sendable (TimelineEvent, Double) -> Void)? = nil
  ) async throws {
    var playhead = TimelinePlayhead(self, base: base)
    let step = moveStep.isFinite && moveStep > 0 ? moveStep : 1.0 / 60
    var index = 0
    var next = events.first?.time
    while let tick = next {
      try await clock.sleep(until: tick)
      var performed: [TimelineEvent] = []
      while index < events.count && events[index].time <= tick {
        let event = events[index]
        if (event.transition?.duration ?? 0) == 0 { try target.replay(event.action) }
        performed.append(event)
        index += 1
      }
      let state = try playhead.state(at: tick)
      for control in playhead.moved {
        try target.replay(
          control == .zoomCenter
            ? .slideCenter(state.zoomCenter) : .slide(control, value: try state.value(of: control)))
      }
      for event in performed { onEvent?(event, clock.now()) }
      // The next event, or while a control moves, the next step or the end of a move if sooner.
      next = index < events.count ? events[index].time : nil
      if let end = playhead.nextMoveEnd {
        next = min(next ?? .infinity, tick + step, max(end, tick.nextUp))
      }
    }
  }
}

extension ControlState {
  /// The value a slide of `control` sets (for white balance, the temperature in kelvin).
  ///
  /// - Throws: `TimelineError.unsupportedMove` when the control has no such number (white balance as
  ///   shot or auto, the zoom centre's two coordinates, a picker).
  func value(of control: ControlKey) throws(TimelineError) -> Double {
    switch control.descriptor.kind {
    case .number(_, _, let value): return self[keyPath: value]
    case .whiteBalance:
      switch whiteBalance {
      case .kelvin(let kelvin): return kelvin
      case .preset(let preset): return preset.kelvin
      case .none, .auto:
        throw .unsupportedMove(
          "a white-balance move starts from a temperature, and white balance "
            + "\(whiteBalance.text) has none; set a kelvin value or a preset before it")
      }
    case .point, .filter, .toggle:
      throw .unsupportedAction(control: control.rawValue, action: "number slide")
    }
  }
}
