/// Clock helpers: every measurement uses the monotonic `ContinuousClock`.
enum Timing {
  /// `duration` in seconds.
  static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }

  /// Seconds from `start` to `end`.
  static func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant)
    -> Double
  {
    seconds(end - start)
  }

  /// Runs `body` once and returns how long it took, in seconds.
  static func measure(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    return seconds(from: start, to: ContinuousClock.now)
  }
}

/// Keeps `value` alive and observed, so the optimizer cannot drop the work that produced it.
@_optimize(none)
func blackHole<T>(_ value: T) {}
