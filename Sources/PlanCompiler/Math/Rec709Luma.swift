/// Rec. 709 luma weights of linear sRGB: `Y = 0.2126 R + 0.7152 G + 0.0722 B`.
public enum Rec709Luma {
  /// The weights of R, G and B; they sum to 1.
  public static let weights = SIMD3<Double>(0.2126, 0.7152, 0.0722)

  /// The luma of a linear RGB value.
  public static func luma(_ rgb: SIMD3<Double>) -> Double {
    (rgb * weights).sum()
  }
}
