import Foundation

/// Recorded user events in time order: the input of the frame command and the latency benchmark.
///
/// For frame `k` of a video at `R` frames per second, the events that apply are those at or before
/// `frameTime(k, fps: R)` (within ``timeTolerance``); `state(at:base:)` folds them into a `ControlState`,
/// keyframed slides (events with a ``TimelineTransition``) evaluated at that time (see
/// ``TimelinePlayhead``).
public struct Timeline: Sendable, Hashable {
  /// The events, sorted by time; events at the same time keep their recorded order.
  public private(set) var events: [TimelineEvent]

  /// Creates a timeline, sorting the events by time (stably).
  ///
  /// - Throws: `TimelineError.invalidTime` for a negative or non-finite time,
  ///   `TimelineError.invalidDuration` for a negative or non-finite duration, and
  ///   `TimelineError.transitionNotAllowed` for a duration on a selection or press.
  public init(events: [TimelineEvent]) throws(TimelineError) {
    for event in events {
      guard event.time.isFinite && event.time >= 0 else { throw .invalidTime(event.time) }
      guard let transition = event.transition else { continue }
      guard transition.duration.isFinite && transition.duration >= 0 else {
        throw .invalidDuration(transition.duration)
      }
      switch event.action {
      case .slide, .slideCenter: break
      case .select: throw .transitionNotAllowed(action: "select")
      case .press: throw .transitionNotAllowed(action: "press")
      }
    }
    self.events = events.enumerated()
      .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
      .map(\.element)
  }

  /// When the last event, or the last keyframed move, ends; 0 when empty.
  public var duration: Double {
    events.map { $0.time + ($0.transition?.duration ?? 0) }.max() ?? 0
  }

  /// How much later than a time an event may be and still apply at that time: half a millisecond, so
  /// that an event written at a frame's time rounded to the millisecond applies to that frame.
  public static let timeTolerance = 0.0005

  /// The time of frame `frame` at `fps` frames per second: `frame / fps`.
  public static func frameTime(_ frame: Int, fps: Double) -> Double {
    Double(frame) / fps
  }

  /// The events at or before `time` (within ``timeTolerance``).
  public func events(through time: Double) -> ArraySlice<TimelineEvent> {
    events[..<endIndex(through: time)]
  }

  /// `base` with every slide and selection at or before `time` applied in order, and keyframed slides
  /// evaluated at `time` (see ``TimelinePlayhead``).
  ///
  /// - Throws: `TimelineError.inapplicable` for an event whose value is not allowed.
  public func state(at time: Double, base: ControlState = .identity) throws -> ControlState {
    var playhead = TimelinePlayhead(self, base: base)
    return try playhead.state(at: time)
  }

  /// The index after the last event at or before `time` (within ``timeTolerance``).
  func endIndex(through time: Double) -> Int {
    var low = 0
    var high = events.count
    let limit = time + Self.timeTolerance
    while low < high {
      let middle = (low + high) / 2
      if events[middle].time <= limit { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

/// Walks a timeline forwards, handing out each event once: for frame after frame of a video.
public struct TimelineCursor: Sendable {
  /// The timeline being walked.
  public let timeline: Timeline
  /// The index of the next event not yet handed out.
  public private(set) var position = 0

  /// Creates a cursor at the start of `timeline`.
  public init(_ timeline: Timeline) {
    self.timeline = timeline
  }

  /// The events at or before `time` (within ``Timeline/timeTolerance``) not handed out yet; a time
  /// earlier than the last call returns none.
  public mutating func advance(through time: Double) -> ArraySlice<TimelineEvent> {
    let end = max(timeline.endIndex(through: time), position)
    defer { position = end }
    return timeline.events[position..<end]
  }
}
