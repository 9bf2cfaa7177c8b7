/// Saturation in linear light: `c' = Y + s (c − Y)` with the luma `Y` of the picture's primaries (Rec. 709
/// unless given).
public enum SaturationMatrix {
  /// The matrix for saturation `s`: `s · I + (1 − s) · [Y; Y; Y]` with luma weights `luma`. `s = 0` gives
  /// grey, `s = 1` the identity.
  public static func matrix(saturation s: Double, luma: SIMD3<Double> = Rec709Luma.weights)
    -> Matrix3
  {
    let grey = luma * (1 - s)
    return Matrix3(
      grey + SIMD3(s, 0, 0),
      grey + SIMD3(0, s, 0),
      grey + SIMD3(0, 0, s))
  }
}
