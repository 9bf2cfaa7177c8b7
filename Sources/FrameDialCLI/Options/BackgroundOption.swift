import Foundation
import FrameDial

/// `--background COLOUR`, shared by `apply` and `batch`: what transparency is flattened onto for JPEG
/// output, given as `white`, `black`, `grey`, `#RRGGBB`, `#RGB` or `R,G,B` (0 … 255 each).
enum BackgroundOption {
  /// The option, read as red, green and blue 0 … 255.
  static let option = ValueOption(
    StillOptionKey.background.commandLineName, "COLOUR",
    "what transparency is flattened onto for JPEG output: white (default), black, #RRGGBB, R,G,B",
    read: colour(parsing:option:))

  /// The named colours.
  static let names: [String: SIMD3<Double>] = [
    "white": SIMD3(255, 255, 255), "black": SIMD3(0, 0, 0), "grey": SIMD3(128, 128, 128),
    "gray": SIMD3(128, 128, 128),
  ]

  /// The colour `text` names, as red, green and blue 0 … 255.
  ///
  /// - Throws: `UsageError` naming `option` and `text` when it is no colour.
  static func colour(parsing text: String, option: String) throws(UsageError) -> SIMD3<Double> {
    let word = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let named = names[word] { return named }
    if word.hasPrefix("#") {
      let digits = Array(word.dropFirst())
      let pairs: [String]
      switch digits.count {
      case 6: pairs = stride(from: 0, to: 6, by: 2).map { String(digits[$0..<($0 + 2)]) }
      case 3: pairs = digits.map { String([$0, $0]) }
      default: pairs = []
      }
      let values = pairs.compactMap { UInt8($0, radix: 16) }
      if values.count == 3 { return SIMD3(values.map(Double.init)) }
    } else {
      let parts = word.split(separator: ",", omittingEmptySubsequences: false)
      let values = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
      if parts.count == 3, values.count == 3, values.allSatisfy({ (0...255).contains($0) }) {
        return SIMD3(values.map(Double.init))
      }
    }
    throw UsageError(
      "\(option) must be white, black, grey, #RRGGBB, #RGB or R,G,B (0 … 255), not '\(text)'")
  }
}
