import Foundation

/// White balance from a colour temperature and tint: per-channel gains in linear light of a picture's
/// primaries (BT.709 / sRGB unless given), green at 1.
///
/// The white point of the scene light lies on the CIE daylight locus from 4000 K up and on the Planckian
/// locus (Kim et al. cubic spline) below. Its linear value `rgb` in the primaries (``ColourEncoding/Primaries/xyzToLinear``
/// times its XYZ) gives the gains `g_c = rgb_G / rgb_c`, so that light turns neutral. Tint then multiplies the green gain by `2^(−t/200)`.
public enum WhiteBalanceGains {
  /// The CIE 1931 `xy` chromaticity of the light at `kelvin`.
  public static func chromaticity(kelvin t: Double) -> SIMD2<Double> {
    let t2 = t * t
    let t3 = t2 * t
    if t >= 4000 {
      let x: Double
      if t <= 7000 {
        x = -4.6070e9 / t3 + 2.9678e6 / t2 + 0.09911e3 / t + 0.244063
      } else {
        x = -2.0064e9 / t3 + 1.9018e6 / t2 + 0.24748e3 / t + 0.237040
      }
      return SIMD2(x, -3 * x * x + 2.87 * x - 0.275)
    }
    let x = -0.2661239e9 / t3 - 0.2343589e6 / t2 + 0.8776956e3 / t + 0.179910
    let x2 = x * x
    let x3 = x2 * x
    let y: Double
    if t < 2222 {
      y = -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683
    } else {
      y = -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867
    }
    return SIMD2(x, y)
  }

  /// The linear value of the light at `kelvin` in `primaries`, scaled to `Y = 1`.
  public static func lightColor(
    kelvin: Double, primaries: ColourEncoding.Primaries = .bt709
  ) -> SIMD3<Double> {
    let xy = chromaticity(kelvin: kelvin)
    let xyz = SIMD3(xy.x / xy.y, 1, (1 - xy.x - xy.y) / xy.y)
    return primaries.xyzToLinear * xyz
  }

  /// The range every final gain is clamped to, like a camera's largest white-balance gain.
  public static let gainRange: ClosedRange<Double> = 0.25...4

  /// The gains that neutralise light at `kelvin`, with the green gain then multiplied by `2^(−tint/200)`,
  /// each clamped to ``gainRange``, for linear light in `primaries`.
  ///
  /// Below about 1905 K the Planckian white's blue component in linear sRGB is zero or negative; that
  /// channel then gets the largest gain, so a lower temperature is never less blue than a higher one (an
  /// unclamped negative gain would turn the picture green-black).
  public static func gains(
    kelvin: Double, tint: Double, primaries: ColourEncoding.Primaries = .bt709
  ) -> SIMD3<Double> {
    let light = lightColor(kelvin: kelvin, primaries: primaries)
    func gain(for component: Double) -> Double {
      component > 0 ? light.y / component : gainRange.upperBound
    }
    let raw = SIMD3(gain(for: light.x), 1, gain(for: light.z)) * SIMD3(1, pow(2, -tint / 200), 1)
    return raw.clamped(
      lowerBound: SIMD3(repeating: gainRange.lowerBound),
      upperBound: SIMD3(repeating: gainRange.upperBound))
  }
}
