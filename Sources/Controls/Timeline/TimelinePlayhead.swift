import Foundation

/// Evaluates a timeline at times that never decrease (frame after frame of a video), keyframed slides
/// included: the state at each time, each event applied once.
///
/// Rules, at time `t`:
/// - An event applies when its time is at or before `t` + ``Timeline/timeTolerance`` (so an event written
///   at a frame's time rounded to the millisecond applies to that frame, not the next).
/// - A slide without a duration sets its control; a selection sets its control. Either ends a keyframed
///   move of the same control that is still under way.
/// - A slide with a duration (see ``TimelineTransition``) moves its control from its value at the
///   event's time — the interpolated value when an earlier move of that control is still under way, which
///   the new move replaces — to the event's value. Moves of different controls run side by side.
/// - A white-balance move starts from a temperature: the kelvin value or the preset's temperature; with
///   white balance as shot or auto there is none, and the move is an error.
public struct TimelinePlayhead: Sendable {
  private var cursor: TimelineCursor
  private var current: ControlState
  private var moves: [ControlKey: Move] = [:]
  /// The controls whose keyframed moves set their values in the last ``state(at:)`` (a move's last
  /// value included), in a fixed order.
  public private(set) var moved: [ControlKey] = []

  /// A move under way: `from` and `to` hold one number, or x and y for the zoom centre.
  private struct Move: Sendable {
    var start: Double
    var transition: TimelineTransition
    var from: [Double]
    var to: [Double]

    func values(at time: Double) -> [Double] {
      // Done from the end time on, whatever `progress` rounds to there.
      if time >= start + transition.duration { return to }
      let progress = (time - start) / transition.duration
      if progress >= 1 { return to }
      if progress <= 0 { return from }
      let fraction = transition.curve.fraction(progress)
      return zip(from, to).map { $0 + ($1 - $0) * fraction }
    }
  }

  /// When the first keyframed move still under way ends, or nil when no control is moving.
  public var nextMoveEnd: Double? {
    moves.values.map { $0.start + $0.transition.duration }.min()
  }

  /// Starts before every event of `timeline`, at `base`.
  public init(_ timeline: Timeline, base: ControlState = .identity) {
    cursor = TimelineCursor(timeline)
    current = base
  }

  /// The state at `time` (not earlier than the previous call's time; an earlier time reads as that one).
  ///
  /// - Throws: `TimelineError.inapplicable` naming the event's time and the problem (a value outside
  ///   its range, a white-balance move with no temperature to start from).
  public mutating func state(at time: Double) throws(TimelineError) -> ControlState {
    for event in cursor.advance(through: time) {
      do {
        try apply(event)
      } catch {
        throw .inapplicable(time: event.time, problem: Self.describe(error))
      }
    }
    moved = ControlKey.allCases.filter { moves[$0] != nil }
    for control in moved {
      guard let move = moves[control] else { continue }
      let values = move.values(at: time)
      do {
        current = try current.applying(Self.action(control, values))
      } catch {
        throw .inapplicable(time: move.start, problem: Self.describe(error))
      }
      if values == move.to { moves[control] = nil }
    }
    return current
  }

  private mutating func apply(_ event: TimelineEvent) throws {
    guard let control = event.action.control else { return }
    if let move = moves.removeValue(forKey: control) {
      current = try current.applying(Self.action(control, move.values(at: event.time)))
    }
    guard let transition = event.transition, transition.duration > 0 else {
      current = try current.applying(event.action)
      return
    }
    // The target must be a value the control takes.
    _ = try current.applying(event.action)
    let to: [Double]
    switch event.action {
    case .slide(_, let value): to = [value]
    case .slideCenter(let center): to = [center.x, center.y]
    case .select, .press: return
    }
    moves[control] = Move(
      start: event.time, transition: transition, from: try Self.values(of: control, in: current),
      to: to)
  }

  /// The control's value in `state`, as a slide sets it.
  private static func values(of control: ControlKey, in state: ControlState)
    throws(TimelineError) -> [Double]
  {
    control == .zoomCenter
      ? [state.zoomCenter.x, state.zoomCenter.y] : [try state.value(of: control)]
  }

  private static func action(_ control: ControlKey, _ values: [Double]) -> TimelineAction {
    control == .zoomCenter && values.count == 2
      ? .slideCenter(ZoomCenter(x: values[0], y: values[1]))
      : .slide(control, value: values.first ?? .nan)
  }

  private static func describe(_ error: any Error) -> String {
    switch error {
    case let error as ControlStateError: error.description
    case let error as TimelineError: error.description
    default: String(describing: error)
    }
  }
}
