import Foundation

/// Recorded user events in time order: the input of the frame command and the latency benchmark.
///
/// For frame `k` of a video at `R` frames per second, the events that apply are those at or before
/// `frameTime(k, fps: R)`; `state(at:base:)` folds them into a `ControlState`.
public struct Timeline: Sendable, Hashable {
  /// The events, sorted by time; events at the same time keep their recorded order.
  public private(set) var events: [TimelineEvent]

  /// Creates a timeline, sorting the events by time (stably).
  ///
  /// - Throws: `TimelineError.invalidTime` for a negative or non-finite time.
  public init(events: [TimelineEvent]) throws(TimelineError) {
    for event in events where !(event.time.isFinite && event.time >= 0) {
      throw .invalidTime(event.time)
    }
    self.events = events.enumerated()
      .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
      .map(\.element)
  }

  /// The time of the last event, or 0 when empty.
  public var duration: Double { events.last?.time ?? 0 }

  /// The time of frame `frame` at `fps` frames per second: `frame / fps`.
  public static func frameTime(_ frame: Int, fps: Double) -> Double {
    Double(frame) / fps
  }

  /// The events at or before `time`.
  public func events(through time: Double) -> ArraySlice<TimelineEvent> {
    events[..<endIndex(through: time)]
  }

  /// `base` with every slide and selection at or before `time` applied in order.
  ///
  /// - Throws: `ControlStateError` or `TimelineError` for an event whose value is not allowed.
  public func state(at time: Double, base: ControlState = .identity) throws -> ControlState {
    var state = base
    for event in events(through: time) {
      state = try state.applying(event.action)
    }
    return state
  }

  /// The index after the last event at or before `time`.
  func endIndex(through time: Double) -> Int {
    var low = 0
    var high = events.count
    while low < high {
      let middle = (low + high) / 2
      if events[middle].time <= time { low = middle + 1 } else { high = middle }
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

  /// The events at or before `time` not handed out yet; a time earlier than the last call returns none.
  public mutating func advance(through time: Double) -> ArraySlice<TimelineEvent> {
    let end = max(timeline.endIndex(through: time), position)
    defer { position = end }
    return timeline.events[position..<end]
  }
}
