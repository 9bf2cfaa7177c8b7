/// Clock helpers: every measurement uses the monotonic `ContinuousClock`.
public enum Timing {
  /// `duration` in seconds.
  public static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }

  /// `duration` in milliseconds.
  public static func milliseconds(_ duration: Duration) -> Double {
    seconds(duration) * 1e3
  }

  /// Seconds from `start` to `end`.
  public static func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant)
    -> Double
  {
    seconds(end - start)
  }

  /// Runs `body` once and returns how long it took, in seconds.
  public static func measure(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    return seconds(from: start, to: ContinuousClock.now)
  }
}
