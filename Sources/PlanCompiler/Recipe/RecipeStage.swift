import Controls
import Foundation

/// One step of a recipe. Colour stages act on one RGB value; `zoom` acts on geometry only.
public enum RecipeStage: Sendable, Hashable, CustomStringConvertible {
  /// Crop a window of `1/factor` of each side around `center` and enlarge it back to the full size.
  case zoom(factor: Double, center: ZoomCenter)
  /// Encoded values to linear light through a transfer (sRGB: IEC 61966-2-1; HLG: inverse OETF to scene
  /// light; PQ: EOTF to display light with 203 cd/m² as 1).
  case decode(ColourEncoding.Transfer)
  /// Linear light × `2^ev`.
  case exposure(ev: Double)
  /// Linear light × per-channel gains (white balance from a preset or a colour temperature).
  case gains(SIMD3<Double>, name: String)
  /// Linear light × per-channel gains measured from the image at render time (grey world).
  case autoWhiteBalance
  /// Linear light through a 3×3 matrix (saturation, a look's mixing).
  case matrix(Matrix3, name: String)
  /// Negative light clipped to 0, then linear light to encoded values through a transfer (extending above 1).
  case encode(ColourEncoding.Transfer)
  /// A tone curve applied to each encoded channel.
  case curve(Curve, name: String)
  /// Contrast `k` around a pivot on encoded values: `V' = (V − pivot) k + pivot` (0.5 for sRGB).
  case contrast(Double, pivot: Double)

  /// Applies a colour stage to one RGB value in double precision; `zoom` leaves colours unchanged.
  ///
  /// - Parameters:
  ///   - rgb: the value, in the stage's domain (linear light or encoded values).
  ///   - autoGains: the gains `autoWhiteBalance` multiplies by.
  public func apply(_ rgb: SIMD3<Double>, autoGains: SIMD3<Double>) -> SIMD3<Double> {
    switch self {
    case .zoom:
      return rgb
    case .decode(let transfer):
      return SIMD3(transfer.decode(rgb.x), transfer.decode(rgb.y), transfer.decode(rgb.z))
    case .exposure(let ev):
      return rgb * pow(2, ev)
    case .gains(let gains, _):
      return rgb * gains
    case .autoWhiteBalance:
      return rgb * autoGains
    case .matrix(let matrix, _):
      return matrix * rgb
    case .encode(let transfer):
      let clipped = rgb.replacing(with: 0, where: rgb .< 0)
      return SIMD3(
        transfer.encode(clipped.x), transfer.encode(clipped.y), transfer.encode(clipped.z))
    case .curve(let curve, _):
      return SIMD3(curve.evaluate(rgb.x), curve.evaluate(rgb.y), curve.evaluate(rgb.z))
    case .contrast(let k, let pivot):
      return SIMD3(
        Contrast.apply(rgb.x, contrast: k, pivot: pivot),
        Contrast.apply(rgb.y, contrast: k, pivot: pivot),
        Contrast.apply(rgb.z, contrast: k, pivot: pivot))
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
    case .decode(let transfer):
      return "decode \(transfer.displayName) → \(transfer.lightName)"
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
    case .encode(let transfer):
      return "encode \(transfer.lightName) → \(transfer.displayName) (negatives clipped to 0)"
    case .curve(let curve, let name):
      return "curve \(name): \(curve)"
    case .contrast(let k, let pivot):
      return "contrast \(formatForDisplay(k)) around \(formatForDisplay(pivot))"
    }
  }
}

extension ColourEncoding.Transfer {
  /// The transfer's name in recipe listings: `sRGB`, `HLG`, `PQ`.
  package var displayName: String {
    switch self {
    case .sRGB: "sRGB"
    case .hlg: "HLG"
    case .pq: "PQ"
    }
  }

  /// What the decoded values are, in recipe listings.
  package var lightName: String {
    switch self {
    case .sRGB: "linear"
    case .hlg: "scene light"
    case .pq: "display light (203 cd/m² = 1)"
    }
  }
}
