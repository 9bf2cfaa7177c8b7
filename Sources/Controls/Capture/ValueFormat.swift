import Foundation

/// A slider's value format: Apple's `%@` form or a printf-style form with one floating-point conversion.
///
/// `%@` is replaced by the value in FrameDial's plain presentation ("%@%%" shows "40%"); a printf form
/// such as "ƒ%.1f" or "ISO %.0f" is applied to the value. `%%` is a literal percent sign in both.
/// A format with no placeholder, more than one, or any other conversion is invalid.
enum ValueFormat: Sendable, Hashable {
  /// A format with one `%@`: the text before and after it (with `%%` already turned into `%`).
  case object(prefix: String, suffix: String)
  /// A printf-style format with exactly one conversion of `a A e E f F g G`.
  case printf(String)

  /// Parses `format`, or returns `nil` when it is invalid.
  init?(_ format: String) {
    var literal = ""
    var prefix: String?
    var printfCount = 0
    var index = format.startIndex
    while index < format.endIndex {
      let character = format[index]
      index = format.index(after: index)
      guard character == "%" else {
        literal.append(character)
        continue
      }
      guard index < format.endIndex else { return nil }
      if format[index] == "%" {
        literal.append("%")
        index = format.index(after: index)
      } else if format[index] == "@" {
        guard prefix == nil else { return nil }
        prefix = literal
        literal = ""
        index = format.index(after: index)
      } else {
        guard let end = Self.floatConversionEnd(in: format, from: index) else { return nil }
        printfCount += 1
        index = end
      }
    }
    switch (prefix, printfCount) {
    case (let prefix?, 0): self = .object(prefix: prefix, suffix: literal)
    case (nil, 1): self = .printf(format)
    default: return nil
    }
  }

  /// The value presented with this format.
  func string(for value: Double) -> String {
    switch self {
    case .object(let prefix, let suffix): prefix + NumberText.plain(value) + suffix
    case .printf(let format): String(format: format, value)
    }
  }

  /// The index after a conversion of the form `[flags][width][.precision]conversion`, or `nil`.
  private static func floatConversionEnd(in format: String, from start: String.Index) -> String
    .Index?
  {
    var index = start
    func skip(while allowed: (Character) -> Bool) {
      while index < format.endIndex, allowed(format[index]) { index = format.index(after: index) }
    }
    skip { "-+ #0".contains($0) }
    skip { $0.isASCII && $0.isNumber }
    if index < format.endIndex, format[index] == "." {
      index = format.index(after: index)
      skip { $0.isASCII && $0.isNumber }
    }
    guard index < format.endIndex, "aAeEfFgG".contains(format[index]) else { return nil }
    return format.index(after: index)
  }
}
