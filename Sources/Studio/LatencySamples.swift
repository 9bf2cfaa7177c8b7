import Measurement

/// The latest slider-to-displayed-frame latencies the page reported, with their percentiles.
///
/// Keeps the newest ``capacity`` samples (a ring); percentiles are nearest-rank over those.
public struct LatencySamples: Sendable, Equatable {
  /// How many samples are kept.
  public static let capacity = 1024
  /// The largest latency accepted, in milliseconds; larger or negative reports are dropped.
  public static let largestMilliseconds = 60_000.0

  private var values: [Double] = []
  private var next = 0

  /// Creates an empty set.
  public init() {}

  /// The number of samples kept.
  public var count: Int { values.count }

  /// Adds a sample in milliseconds; returns false (and keeps nothing) for a value that is not finite or
  /// not within 0 … ``largestMilliseconds``.
  @discardableResult
  public mutating func add(_ milliseconds: Double) -> Bool {
    guard milliseconds.isFinite, (0...Self.largestMilliseconds).contains(milliseconds) else {
      return false
    }
    if values.count < Self.capacity {
      values.append(milliseconds)
    } else {
      values[next] = milliseconds
    }
    next = (next + 1) % Self.capacity
    return true
  }

  /// The nearest-rank percentile `p` (0 … 100) of the samples kept; nil when there are none.
  public func percentile(_ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    return Statistics.percentile(p, sorted: values.sorted())
  }
}
