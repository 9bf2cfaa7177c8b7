/// A value or key repeated back in an error message, made readable: control characters are shown as
/// escapes (`\0`, `\n`, `\t`, `\u{1B}`), so a NUL cannot end a C string early and a line break cannot
/// split the message, and a long text is cut to its start with the number of characters it has.
public enum EchoText {
  /// Characters of a value kept in a message.
  public static let defaultLimit = 40

  /// `text` with its control characters escaped, cut after `limit` characters:
  /// `"aaaa…" (2000000 characters)` reads `aaaa… (2000000 characters)`.
  public static func readable(_ text: String, limit: Int = defaultLimit) -> String {
    var result = ""
    var count = 0
    var cut = false
    for scalar in text.unicodeScalars {
      if count == limit {
        cut = true
        break
      }
      result += escaped(scalar)
      count += 1
    }
    guard cut else { return result }
    return result + "… (\(text.unicodeScalars.count) characters)"
  }

  private static func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0: return "\\0"
    case 0x09: return "\\t"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
      return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default: return String(scalar)
    }
  }
}
