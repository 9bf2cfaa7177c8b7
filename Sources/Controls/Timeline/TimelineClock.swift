import Foundation
import Measurement
import Synchronization

/// The clock a timeline is recorded or replayed against, in seconds from its start.
public protocol TimelineClock: Sendable {
  /// Seconds since the clock started.
  func now() -> Double
  /// Returns once the clock reads `time` or later.
  func sleep(until time: Double) async throws
}

/// Wall-clock pace: sleeping waits for real time to pass (on the continuous clock).
public struct RealTimeClock: TimelineClock {
  private let start: ContinuousClock.Instant

  /// Creates a clock that starts now.
  public init() {
    start = ContinuousClock.now
  }

  /// Seconds since the clock was created.
  public func now() -> Double {
    Timing.seconds(ContinuousClock.now - start)
  }

  /// Sleeps until `time` seconds after the clock was created.
  public func sleep(until time: Double) async throws {
    try await Task.sleep(until: start + .seconds(time), clock: .continuous)
  }
}

/// A clock that jumps: sleeping moves it forward at once, so a replay runs as fast as possible while
/// every event still sees its own time.
public final class VirtualClock: TimelineClock {
  private let current: Mutex<Double>

  /// Creates a clock reading `start` seconds.
  public init(start: Double = 0) {
    current = Mutex(start)
  }

  /// The current reading.
  public func now() -> Double { current.withLock { $0 } }

  /// Moves the clock forward to `time` (never backwards) and returns at once.
  public func sleep(until time: Double) async throws {
    try Task.checkCancellation()
    advance(to: time)
  }

  /// Moves the clock forward to `time`; an earlier time leaves it unchanged.
  public func advance(to time: Double) {
    current.withLock { $0 = max($0, time) }
  }
}
