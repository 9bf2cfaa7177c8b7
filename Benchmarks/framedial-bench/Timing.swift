import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Clock helpers: every measurement uses the monotonic `ContinuousClock`.
enum Timing {
  /// The CPU seconds this process has used so far, user and system, all its threads.
  static func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }

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
