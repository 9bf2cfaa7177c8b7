import Foundation

/// The BT.709 transfer (ITU-R BT.709's OETF), in double precision: light `L` (0 … 1) to signal `V`
/// (0 … 1) and back. Apple's HDR gain maps store their samples with it.
public enum BT709Transfer {
  /// A signal from light: `4.5 L` below 0.018, else `1.099 L^0.45 − 0.099` (negative light reads as 0).
  public static func encode(_ light: Double) -> Double {
    if light < 0.018 { return max(light, 0) * 4.5 }
    return 1.099 * pow(light, 0.45) - 0.099
  }

  /// Light from a signal, the inverse of ``encode(_:)``: `V / 4.5` below 0.081, else
  /// `((V + 0.099) / 1.099)^(1 / 0.45)` (a negative signal reads as 0).
  public static func decode(_ signal: Double) -> Double {
    if signal < 0.081 { return max(signal, 0) / 4.5 }
    return pow((signal + 0.099) / 1.099, 1 / 0.45)
  }
}
