import Foundation

/// The two things Foundation's JSON reader lets through that are not JSON, or not one meaning: a comma
/// before a closing bracket or brace, and a key given twice in one object (Foundation keeps one of them, so
/// the other value would never be checked). Found by one pass over the text, with the line and column.
enum JSONStrictness {
  /// The first problem in `data`, as a sentence with its line and column; nil when there is none.
  ///
  /// Only commas and keys are judged here; everything else is left to the JSON reader that runs next, so
  /// this pass simply stops when the text does not look like JSON.
  static func problem(in data: Data) -> String? {
    let bytes = [UInt8](data)
    var containers: [Container] = []
    var index = 0
    var lastSignificant: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        guard let end = stringEnd(bytes, from: index) else { return nil }
        if let top = containers.last, top.expectsKey {
          let key = decodedString(Array(bytes[index...end]))
          if !containers[containers.count - 1].keys.insert(key).inserted {
            return
              "the key \"\(key)\" appears twice in one object (\(position(of: index, in: bytes)))"
          }
        }
        index = end
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        containers.append(Container(isObject: byte == UInt8(ascii: "{")))
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if lastSignificant == UInt8(ascii: ",") {
          return
            "a comma before '\(Character(Unicode.Scalar(byte)))' (\(position(of: index, in: bytes)))"
        }
        _ = containers.popLast()
      case UInt8(ascii: ","):
        if let top = containers.last, top.isObject {
          containers[containers.count - 1].expectsKey = true
        }
      case UInt8(ascii: ":"):
        if let top = containers.last, top.isObject {
          containers[containers.count - 1].expectsKey = false
        }
      default:
        break
      }
      if !isWhitespace(byte) { lastSignificant = byte }
      index += 1
    }
    return nil
  }

  /// An object or array being read; for an object, the keys seen and whether a key comes next.
  private struct Container {
    var isObject: Bool
    var expectsKey: Bool
    var keys: Set<String> = []

    init(isObject: Bool) {
      self.isObject = isObject
      expectsKey = isObject
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// The index of the quote that closes the string opening at `start`, or nil when it never closes.
  private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start + 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index
      default: index += 1
      }
    }
    return nil
  }

  /// A quoted key with its escapes resolved (`"\u0061"` and `"a"` are the same key).
  private static func decodedString(_ quoted: [UInt8]) -> String {
    if let text = try? JSONDecoder().decode(String.self, from: Data(quoted)) { return text }
    return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
  }

  /// "line L, column C" of the byte at `offset` (both from 1; columns count characters).
  static func position(of offset: Int, in bytes: [UInt8]) -> String {
    var line = 1
    var lineStart = 0
    for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    let column =
      String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self)
      .unicodeScalars.count + 1
    return "line \(line), column \(column)"
  }
}
