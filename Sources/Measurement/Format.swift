import Foundation

/// Number formatting for the report.
public enum Format {
  /// `value` with two decimals below 10, one below 100 and none above, trailing zeros dropped;
  /// "–" for NaN or infinity.
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    let magnitude = abs(value)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2
    var text = String(format: "%.\(decimals)f", value)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
  }

  /// `count` and `noun`, with an "s" unless the count is one: "1 thread", "2 threads".
  public static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }
}
