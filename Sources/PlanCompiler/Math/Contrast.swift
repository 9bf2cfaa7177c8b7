/// Contrast around a pivot on encoded values: `V' = (V − pivot) k + pivot`. The pivot is sRGB's mid-grey
/// 0.5, or for HLG and PQ the signal of 18 % of reference white (``ColourEncoding/Transfer/contrastPivot``).
public enum Contrast {
  /// The contrasted value, not yet clipped (the recipe clips once, after this stage).
  public static func apply(_ encoded: Double, contrast k: Double, pivot: Double = 0.5) -> Double {
    (encoded - pivot) * k + pivot
  }
}
