import Foundation
import Synchronization

/// Collects user events with their times on a clock, safe to call from any thread.
public final class TimelineRecorder: Sendable {
  private let clock: any TimelineClock
  private let recorded = Mutex<[TimelineEvent]>([])

  /// Creates a recorder that stamps events with `clock.now()`.
  public init(clock: any TimelineClock = RealTimeClock()) {
    self.clock = clock
  }

  /// Records `action` at the clock's current time.
  public func record(_ action: TimelineAction) {
    let time = max(0, clock.now())
    recorded.withLock { $0.append(TimelineEvent(time: time, action: action)) }
  }

  /// The events recorded so far.
  ///
  /// - Throws: `TimelineError.invalidTime` if the clock reported a non-finite time.
  public func timeline() throws(TimelineError) -> Timeline {
    try Timeline(events: recorded.withLock { $0 })
  }
}
