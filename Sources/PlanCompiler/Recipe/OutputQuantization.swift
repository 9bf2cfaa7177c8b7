/// Quantization to an output depth: `round(V × maxCode)` with halves rounding up.
public enum OutputQuantization {
  /// The output code of an encoded value `v`, clipped to 0 … 1 first (NaN reads as 0).
  public static func code(_ v: Double, maxCode: Int) -> Int {
    let clipped = v.isNaN ? 0 : min(max(v, 0), 1)
    return Int((clipped * Double(maxCode) + 0.5).rounded(.down))
  }
}
