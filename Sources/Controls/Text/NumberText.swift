import Foundation
import JSON

/// FrameDial's plain presentation of numbers in labels and messages.
enum NumberText {
  /// The value with at most `maxFractionDigits` decimals and no trailing zeros ("5", "0.33", "-1.5").
  static func plain(_ value: Double, maxFractionDigits: Int = 4) -> String {
    guard value.isFinite else { return String(value) }
    let text = String(format: "%.\(maxFractionDigits)f", value)
    guard text.contains(".") else { return text }
    var trimmed = Substring(text)
    while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
    if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
    return trimmed == "-0" ? "0" : String(trimmed)
  }

  /// The shortest text that reads back to the same value: "4500" for integral values, else Swift's own form.
  static func shortest(_ value: Double) -> String {
    JSONText.shortest(value)
  }
}
