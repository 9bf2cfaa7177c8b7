import Foundation

/// The perceptual quantizer of SMPTE ST 2084 (BT.2100 PQ), in double precision, on display light
/// normalised so that reference white, 203 cd/m² (BT.2408), is 1.0: the signal's top, 10 000 cd/m², is
/// `10000 / 203 ≈ 49.26`.
///
/// `encode` extends its formula above the top (a signal above 1, clipped by the recipe's final clip);
/// `decode` is its inverse, +∞ where a signal lies beyond every light.
public enum PQTransfer {
  /// `m1 = 2610 / 16384`.
  public static let m1 = 2610.0 / 16384
  /// `m2 = 2523 / 4096 × 128`.
  public static let m2 = 2523.0 / 4096 * 128
  /// `c1 = 3424 / 4096`.
  public static let c1 = 3424.0 / 4096
  /// `c2 = 2413 / 4096 × 32`.
  public static let c2 = 2413.0 / 4096 * 32
  /// `c3 = 2392 / 4096 × 32`.
  public static let c3 = 2392.0 / 4096 * 32
  /// Reference white in cd/m², the light called 1.0.
  public static let referenceWhite = 203.0
  /// The signal's top in cd/m².
  public static let peak = 10000.0

  /// Normalised display light from a signal (ST 2084 EOTF × 10 000 / 203); negative signal reads as 0.
  public static func decode(_ signal: Double) -> Double {
    let p = pow(max(signal, 0), 1 / m2)
    let denominator = c2 - c3 * p
    guard denominator > 0 else { return .infinity }
    return pow(max(p - c1, 0) / denominator, 1 / m1) * peak / referenceWhite
  }

  /// A signal from normalised display light (inverse EOTF of `light × 203` cd/m²); negative light reads as 0.
  public static func encode(_ light: Double) -> Double {
    let x = pow(max(light, 0) * referenceWhite / peak, m1)
    return pow((c1 + c2 * x) / (1 + c3 * x), m2)
  }
}
