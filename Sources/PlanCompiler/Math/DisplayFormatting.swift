import Foundation

/// A short, stable rendering of a double for recipe listings: up to six significant digits.
func formatForDisplay(_ value: Double) -> String {
  if value == 0 { return "0" }
  return String(format: "%.6g", value)
}
