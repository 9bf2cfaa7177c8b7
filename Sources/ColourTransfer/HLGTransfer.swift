import Foundation

/// The hybrid log-gamma transfer of BT.2100 (ARIB STD-B67), in double precision: scene light `E` (0 … 1)
/// to signal `E′` (0 … 1) and back.
///
/// Both directions extend their formulas beyond 0 … 1: `encode` of light above 1 follows the log segment
/// (a signal above 1, clipped by the recipe's final clip), and `decode` is its exact inverse there.
/// Negative signal decodes to negative light (`−E′²/3`), so the inverse stays increasing.
public enum HLGTransfer {
  /// The log segment's `a`.
  public static let a = 0.17883277
  /// The log segment's `b = 1 − 4a`.
  public static let b = 1 - 4 * a
  /// The log segment's `c = 0.5 − a·ln(4a)`.
  public static let c = 0.5 - a * log(4 * a)
  /// The steepest slope of `encode` against `sqrt(E)`: `E′ = sqrt(3) · sqrt(E)` up to `E = 1/12`, and the
  /// log segment's slope against `sqrt(E)` only falls from there.
  public static let squareRootSlope = 3.0.squareRoot()

  /// Scene light from a signal: `E′²/3` up to 0.5, else `(exp((E′ − c)/a) + b)/12`.
  public static func decode(_ signal: Double) -> Double {
    if signal <= 0.5 {
      return signal < 0 ? -signal * signal / 3 : signal * signal / 3
    }
    return (exp((signal - c) / a) + b) / 12
  }

  /// A signal from scene light: `sqrt(3E)` up to 1/12, else `a·ln(12E − b) + c` (negative light reads as 0).
  public static func encode(_ light: Double) -> Double {
    if light <= 1.0 / 12 {
      return (3 * max(light, 0)).squareRoot()
    }
    return a * log(12 * light - b) + c
  }
}
