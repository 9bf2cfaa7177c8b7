import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Clock helpers: every measurement uses the monotonic `ContinuousClock`.
public enum Timing {
  /// The CPU seconds this process has used so far, user and system, all its threads.
  public static func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }

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
