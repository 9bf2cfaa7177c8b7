/// Summary statistics of a sample of measurements, with the methods stated.
///
/// - Median: the middle value of the sorted sample; for an even count, the mean of the two middle values.
/// - Percentiles: nearest rank. The p-th percentile of `n` sorted values is the value at rank
///   `ceil(p / 100 × n)` (1-based, at least 1), so it is always one of the measured values.
public struct Summary: Sendable, Equatable, Codable {
  /// How many values the sample holds.
  public var count: Int
  /// The smallest value.
  public var min: Double
  /// The median (mean of the two middle values for an even count).
  public var median: Double
  /// The 99th percentile, nearest rank.
  public var p99: Double
  /// The largest value.
  public var max: Double
  /// The arithmetic mean.
  public var mean: Double

  /// Summarizes `values`; `nil` for an empty sample or one holding a NaN.
  public init?(_ values: [Double]) {
    guard !values.isEmpty, !values.contains(where: \.isNaN) else { return nil }
    let sorted = values.sorted()
    count = sorted.count
    min = sorted[0]
    max = sorted[sorted.count - 1]
    median = Statistics.median(sorted: sorted)
    p99 = Statistics.percentile(99, sorted: sorted)
    mean = sorted.reduce(0, +) / Double(sorted.count)
  }

  /// The same summary with every value multiplied by `factor` (for unit changes).
  public func scaled(by factor: Double) -> Summary {
    var copy = self
    copy.min *= factor
    copy.median *= factor
    copy.p99 *= factor
    copy.max *= factor
    copy.mean *= factor
    return copy
  }
}

/// Order statistics on sorted samples.
public enum Statistics {
  /// The median of ascending `sorted` values (mean of the two middle ones for an even count); NaN when
  /// empty.
  public static func median(sorted: [Double]) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    if sorted.count % 2 == 1 { return sorted[middle] }
    return (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The nearest-rank `p`-th percentile (0 … 100) of ascending `sorted` values: the value at 1-based
  /// rank `ceil(p / 100 × n)`, at least rank 1. NaN when empty.
  public static func percentile(_ p: Double, sorted: [Double]) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let clamped = Swift.min(Swift.max(p, 0), 100)
    let rank = Int((clamped / 100 * Double(sorted.count)).rounded(.up))
    return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
  }
}
