/// Contrast around mid-grey on sRGB-encoded values: `V' = (V − 0.5) k + 0.5`.
public enum Contrast {
  /// The contrasted value, not yet clipped (the recipe clips once, after this stage).
  public static func apply(_ encoded: Double, contrast k: Double) -> Double {
    (encoded - 0.5) * k + 0.5
  }
}
