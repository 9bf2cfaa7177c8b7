import Foundation

/// A look at a JSON text's nesting before anything decodes it: the studio's state objects and `/live`
/// messages nest two or three levels, and a body of arrays nested hundreds deep (64 KiB of `[`) would
/// cost the decoders far more than its size. One pass over the bytes, strings skipped.
enum JSONNesting {
  /// The deepest nesting of arrays and objects taken.
  static let deepest = 16

  /// Nil when `data` nests arrays and objects at most ``deepest`` levels, else why it is refused.
  static func refusal(_ data: Data) -> String? {
    var depth = 0
    var inString = false
    var escaped = false
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > deepest {
          return "the JSON nests arrays and objects more than \(deepest) levels deep"
        }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
      default: break
      }
    }
    return nil
  }
}
