import Foundation

/// The JSON FrameDial writes: small documents built from values so that every string is escaped (the
/// studio server's messages to the page, errors, stats), and the one-line objects of the CLI's `--json`
/// outputs.
public enum JSONText {
  /// A value.
  public enum Value: Sendable {
    case string(String)
    case number(Double)
    case integer(Int64)
    case bool(Bool)
    case null
    /// Bytes that already hold a JSON value (a state object from the backend).
    case raw(Data)
    case object([(String, Value)])
  }

  /// An object with `members` in the order given.
  public static func object(_ members: KeyValuePairs<String, Value>) -> Data {
    encode(.object(members.map { ($0.key, $0.value) }))
  }

  /// The bytes of `value`.
  public static func encode(_ value: Value) -> Data {
    var out = Data()
    write(value, into: &out)
    return out
  }

  private static func write(_ value: Value, into out: inout Data) {
    switch value {
    case .string(let text): out.append(contentsOf: quoted(text).utf8)
    case .number(let number):
      out.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
    case .integer(let number): out.append(contentsOf: "\(number)".utf8)
    case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
    case .null: out.append(contentsOf: "null".utf8)
    case .raw(let data): out.append(data)
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (index, (key, member)) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: quoted(key).utf8)
        out.append(UInt8(ascii: ":"))
        write(member, into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "<": result += "\\u003c"  // never "</script>" in a document a page might embed
      default:
        if scalar.value < 0x20 {
          result += String(format: "\\u%04x", scalar.value)
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  /// `object` serialised on one line, keys sorted: what `--json` outputs print.
  public static func line(_ object: [String: Any]) throws -> String {
    String(
      decoding: try JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
      as: UTF8.self)
  }

  /// `objects` as one JSON array on one line, keys sorted.
  public static func line(_ objects: [[String: Any]]) throws -> String {
    String(
      decoding: try JSONSerialization.data(
        withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes]),
      as: UTF8.self)
  }
}
