import Controls
import Foundation
import FrameDialCLI
import Studio
import Synchronization

/// The gesture recording of `framedial studio`: the page's changes and presses as timeline events, with
/// times in seconds from the moment recording started, so `frames --timeline` and `video --timeline`
/// replay them. A recording opens with the state it started from (the events that make it from the
/// identity, at time 0), so the file alone reproduces the look. A recording holds at most
/// ``eventLimit`` events: one that reaches it stops by itself (a page left recording, or a script
/// sending changes without end, cannot grow it without bound).
final class StudioRecording: Sendable {
  private struct Take {
    var recorder: TimelineRecorder?
    var events: [TimelineEvent] = []
    /// The events recorded by `recorder` so far.
    var recorded = 0
  }

  private let take = Mutex(Take())
  /// The most events a recording holds (the opening ones included).
  let eventLimit: Int

  /// A recording of at most `eventLimit` events (100 000 by default: hours of continuous sliding).
  init(eventLimit: Int = 100_000) {
    self.eventLimit = eventLimit
  }

  /// Starts a new recording from `state`, forgetting the last one.
  func start(from state: ControlState) {
    let recorder = TimelineRecorder(clock: RealTimeClock())
    let opening = state.timelineActions(from: .identity).map {
      TimelineEvent(time: 0, action: $0)
    }
    take.withLock { $0 = Take(recorder: recorder, events: opening) }
  }

  /// Stops the running recording (nothing happens when none runs).
  func stop() {
    take.withLock { take in
      take.events = Self.events(of: take)
      take.recorder = nil
    }
  }

  /// Whether a recording runs and how many events it holds.
  var status: RecordingStatus {
    take.withLock {
      RecordingStatus(recording: $0.recorder != nil, events: Self.events(of: $0).count)
    }
  }

  /// Records `actions` now, when a recording runs; the recording stops once it holds ``eventLimit``
  /// events.
  func record(_ actions: [TimelineAction]) {
    take.withLock { take in
      for action in actions {
        guard take.recorder != nil else { return }
        guard take.events.count + take.recorded < eventLimit else {
          take.events = Self.events(of: take)
          take.recorder = nil
          return
        }
        take.recorder?.record(action)
        take.recorded += 1
      }
    }
  }

  /// The recording (running or last) as JSON Lines.
  func jsonLines() -> Data {
    let events = take.withLock { Self.events(of: $0) }
    // The recorder's clock is monotonic, so the events are in order and the timeline is valid.
    return Data(((try? Timeline(events: events))?.jsonLines() ?? "").utf8)
  }

  private static func events(of take: Take) -> [TimelineEvent] {
    take.events + ((try? take.recorder?.timeline().events) ?? [])
  }
}
