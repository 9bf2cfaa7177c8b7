import Controls
import Foundation

/// One step of a recipe. Colour stages act on one RGB value; `zoom` acts on geometry only.
public enum RecipeStage: Sendable, Hashable, CustomStringConvertible {
  /// Crop a window of `1/factor` of each side around `center` and enlarge it back to the full size.
  case zoom(factor: Double, center: ZoomCenter)
  /// sRGB-encoded values to linear light (IEC 61966-2-1).
  case decodeSRGB
  /// Linear light × `2^ev`.
  case exposure(ev: Double)
  /// Linear light × per-channel gains (white balance from a preset or a colour temperature).
  case gains(SIMD3<Double>, name: String)
  /// Linear light × per-channel gains measured from the image at render time (grey world).
  case autoWhiteBalance
  /// Linear light through a 3×3 matrix (saturation, a look's mixing).
  case matrix(Matrix3, name: String)
  /// Negative light clipped to 0, then linear light to sRGB-encoded values (extending above 1).
  case encodeSRGB
  /// A tone curve applied to each encoded channel.
  case curve(Curve, name: String)
  /// Contrast `k` around mid-grey on encoded values: `V' = (V − 0.5) k + 0.5`.
  case contrast(Double)

  /// Applies a colour stage to one RGB value in double precision; `zoom` leaves colours unchanged.
  ///
  /// - Parameter autoGains: the gains `autoWhiteBalance` multiplies by.
  public func apply(_ rgb: SIMD3<Double>, autoGains: SIMD3<Double>) -> SIMD3<Double> {
    switch self {
    case .zoom:
      return rgb
    case .decodeSRGB:
      return SIMD3(
        SRGBTransfer.decode(rgb.x), SRGBTransfer.decode(rgb.y), SRGBTransfer.decode(rgb.z))
    case .exposure(let ev):
      return rgb * pow(2, ev)
    case .gains(let gains, _):
      return rgb * gains
    case .autoWhiteBalance:
      return rgb * autoGains
    case .matrix(let matrix, _):
      return matrix * rgb
    case .encodeSRGB:
      let clipped = rgb.replacing(with: 0, where: rgb .< 0)
      return SIMD3(
        SRGBTransfer.encode(clipped.x), SRGBTransfer.encode(clipped.y),
        SRGBTransfer.encode(clipped.z))
    case .curve(let curve, _):
      return SIMD3(curve.evaluate(rgb.x), curve.evaluate(rgb.y), curve.evaluate(rgb.z))
    case .contrast(let k):
      return SIMD3(
        Contrast.apply(rgb.x, contrast: k), Contrast.apply(rgb.y, contrast: k),
        Contrast.apply(rgb.z, contrast: k))
    }
  }

  /// True for `zoom`, the one stage that moves pixels instead of changing their values.
  public var isGeometric: Bool {
    if case .zoom = self { return true }
    return false
  }

  /// One readable line, e.g. `exposure +1 EV` or `matrix saturation 1.3: [..] [..] [..]`.
  public var description: String {
    switch self {
    case .zoom(let factor, let center):
      return "zoom ×\(formatForDisplay(factor)) centre (\(formatForDisplay(center.x)), "
        + "\(formatForDisplay(center.y)))"
    case .decodeSRGB:
      return "decode sRGB → linear"
    case .exposure(let ev):
      return
        "exposure \(ev >= 0 ? "+" : "")\(formatForDisplay(ev)) EV (× \(formatForDisplay(pow(2, ev))))"
    case .gains(let gains, let name):
      return "gains \(name): r \(formatForDisplay(gains.x)) g \(formatForDisplay(gains.y)) "
        + "b \(formatForDisplay(gains.z))"
    case .autoWhiteBalance:
      return "gains auto white balance (grey world, measured at render time)"
    case .matrix(let matrix, let name):
      return "matrix \(name): \(matrix)"
    case .encodeSRGB:
      return "encode linear → sRGB (negatives clipped to 0)"
    case .curve(let curve, let name):
      return "curve \(name): \(curve)"
    case .contrast(let k):
      return "contrast \(formatForDisplay(k)) around 0.5"
    }
  }
}
