import Foundation

/// Any JSON value, read before it is checked so that errors can name the key and the offending value.
public enum JSONValue: Sendable, Hashable, Decodable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Reads one JSON document: strict JSON, so a comma before a closing bracket or a key given twice in one
  /// object is an error (naming the key, the line and the column), not a guess, and so is nesting
  /// deeper than 256 levels, a number too large or too small for a `Double` and a string with half of a
  /// surrogate pair.
  public static func read(_ data: Data) throws(JSONReadError) -> JSONValue {
    JSONValue(try JSONStrictness.read(data))
  }

  /// The value a document read as `value` holds (a ``JSONText/Value/raw(_:)``, which no reading makes,
  /// is `null`).
  public init(_ value: JSONText.Value) {
    switch value {
    case .null, .raw: self = .null
    case .bool(let flag): self = .bool(flag)
    case .number(let number): self = .number(number)
    case .integer(let number): self = .number(Double(number))
    case .unsigned(let number): self = .number(Double(number))
    case .string(let text): self = .string(text)
    case .array(let items): self = .array(items.map(JSONValue.init))
    case .object(let members):
      self = .object(Dictionary(members.map { ($0.0, JSONValue($0.1)) }) { first, _ in first })
    }
  }

  /// A compact JSON-like rendering for error messages.
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let bool): String(bool)
    case .number(let number): JSONText.shortest(number)
    case .string(let string): "\"\(string)\""
    case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
    case .object(let members):
      "{"
        + members.keys.sorted().map { "\"\($0)\":\(members[$0]?.description ?? "null")" }
        .joined(separator: ",") + "}"
    }
  }

  /// The name of the value's JSON type, for error messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
