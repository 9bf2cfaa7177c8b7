import Foundation

/// The sRGB transfer functions of IEC 61966-2-1, in double precision.
///
/// Both directions extend their formulas beyond 0 … 1 unchanged: `encode` of a value above 1 follows the
/// power segment, and `decode` is its exact inverse there, so over-exposed light survives until the final clip.
public enum SRGBTransfer {
  /// The encoded value at which `decode` switches from its linear to its power segment.
  public static let decodeThreshold = 0.04045
  /// The linear value at which `encode` switches from its linear to its power segment.
  public static let encodeThreshold = 0.0031308
  /// The slope of the linear segment, the steepest part of `encode` (encoded units per linear unit).
  public static let linearSlope = 12.92

  /// Linear light from an encoded value: `V / 12.92` up to 0.04045, else `((V + 0.055) / 1.055)^2.4`.
  public static func decode(_ encoded: Double) -> Double {
    if encoded <= decodeThreshold {
      return encoded / linearSlope
    }
    return pow((encoded + 0.055) / 1.055, 2.4)
  }

  /// An encoded value from linear light: `12.92 L` up to 0.0031308, else `1.055 L^(1/2.4) − 0.055`.
  ///
  /// Negative input follows the linear segment; the recipe clips negative light to 0 before calling this.
  public static func encode(_ linear: Double) -> Double {
    if linear <= encodeThreshold {
      return linear * linearSlope
    }
    return 1.055 * pow(linear, 1 / 2.4) - 0.055
  }
}
