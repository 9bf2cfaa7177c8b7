/// A strictly increasing, piecewise-linear tone curve on encoded values.
///
/// Between control points the curve interpolates linearly; beyond the first and last point it continues with
/// the slope of the nearest segment, so values outside 0 … 1 (over-exposed light) stay ordered. Being strictly
/// increasing, the curve has an exact inverse, which the optimizer uses to build lookup tables without a
/// transcendental call per entry.
public struct Curve: Sendable, Hashable, CustomStringConvertible {
  /// The control points `(x, y)`, with `x` and `y` both strictly increasing; at least two.
  public let points: [SIMD2<Double>]

  /// Creates a curve, or nil unless there are at least two finite points with strictly increasing `x` and `y`.
  public init?(points: [SIMD2<Double>]) {
    guard points.count >= 2, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
      return nil
    }
    for index in 1..<points.count {
      guard points[index].x > points[index - 1].x, points[index].y > points[index - 1].y else {
        return nil
      }
    }
    self.points = points
  }

  /// Creates a curve from points already known to be valid (FrameDial's own filter constants).
  init(trustedPoints: [SIMD2<Double>]) {
    self.points = trustedPoints
  }

  /// The curve's value at `x`.
  public func evaluate(_ x: Double) -> Double {
    let segment = segmentIndex(forX: x)
    let a = points[segment]
    let b = points[segment + 1]
    return a.y + (x - a.x) * (b.y - a.y) / (b.x - a.x)
  }

  /// The `x` at which the curve takes the value `y` (the inverse function).
  public func inverse(_ y: Double) -> Double {
    var segment = 0
    while segment < points.count - 2 && y > points[segment + 1].y {
      segment += 1
    }
    let a = points[segment]
    let b = points[segment + 1]
    return a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
  }

  /// The steepest slope of any segment: how much the curve can amplify a small change.
  public var maximumSlope: Double {
    (0..<(points.count - 1)).map { index in
      (points[index + 1].y - points[index].y) / (points[index + 1].x - points[index].x)
    }.max() ?? 1
  }

  /// The control points as `(x, y)` pairs on one line.
  public var description: String {
    points.map { "(\(formatForDisplay($0.x)), \(formatForDisplay($0.y)))" }.joined(separator: " ")
  }

  private func segmentIndex(forX x: Double) -> Int {
    var segment = 0
    while segment < points.count - 2 && x > points[segment + 1].x {
      segment += 1
    }
    return segment
  }
}
