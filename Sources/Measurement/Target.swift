/// A performance target from the product's issue and whether a measurement met it.
public struct Target: Sendable, Equatable, Codable {
  /// Which way the limit points.
  public enum Bound: String, Sendable, Codable {
    /// The measured value must be at most the limit.
    case atMost
    /// The measured value must be at least the limit.
    case atLeast
  }

  /// What is measured, e.g. "1080p colour, 1 thread: × memory pass".
  public var name: String
  /// The measured value.
  public var measured: Double
  /// The limit.
  public var limit: Double
  /// The direction of the limit.
  public var bound: Bound
  /// The unit both values are in, e.g. "×", "µs", "MB".
  public var unit: String

  /// Creates a target check.
  public init(_ name: String, measured: Double, _ bound: Bound, _ limit: Double, unit: String) {
    self.name = name
    self.measured = measured
    self.bound = bound
    self.limit = limit
    self.unit = unit
  }

  /// True when the measurement meets the limit (a NaN measurement never does).
  public var met: Bool {
    guard !measured.isNaN else { return false }
    switch bound {
    case .atMost: return measured <= limit
    case .atLeast: return measured >= limit
    }
  }

  /// "✓" or "✗".
  public var mark: String { met ? "✓" : "✗" }

  /// The limit as text, e.g. "≤ 4×" or "≥ 1.7×".
  public var limitText: String {
    (bound == .atMost ? "≤ " : "≥ ") + Format.number(limit) + (unit == "×" ? "×" : " \(unit)")
  }

  private enum CodingKeys: String, CodingKey {
    case name, measured, limit, bound, unit, met
  }

  /// Reads a target; a stored `met` is ignored (it is recomputed).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    measured = try container.decode(Double.self, forKey: .measured)
    limit = try container.decode(Double.self, forKey: .limit)
    bound = try container.decode(Bound.self, forKey: .bound)
    unit = try container.decode(String.self, forKey: .unit)
  }

  /// Writes the target with `met`, so JSON readers need not recompute it.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(measured, forKey: .measured)
    try container.encode(limit, forKey: .limit)
    try container.encode(bound, forKey: .bound)
    try container.encode(unit, forKey: .unit)
    try container.encode(met, forKey: .met)
  }
}
