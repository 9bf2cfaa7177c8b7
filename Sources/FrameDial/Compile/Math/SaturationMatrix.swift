/// Saturation in linear light: `c' = Y + s (c − Y)` with Rec. 709 luma `Y`.
public enum SaturationMatrix {
  /// The matrix for saturation `s`: `s · I + (1 − s) · [Y; Y; Y]`. `s = 0` gives grey, `s = 1` the identity.
  public static func matrix(saturation s: Double) -> Matrix3 {
    let grey = Rec709Luma.weights * (1 - s)
    return Matrix3(
      grey + SIMD3(s, 0, 0),
      grey + SIMD3(0, s, 0),
      grey + SIMD3(0, 0, s))
  }
}
