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
  /// object is an error (naming the key, the line and the column), not a guess, and so is a number too
  /// large or too small for a `Double` and a string with half of a surrogate pair.
  public static func parse(_ data: Data) throws(ControlStateError) -> JSONValue {
    switch JSONStrictness.read(data) {
    case .success(let value): return value
    case .failure(let problem): throw .invalidJSON(problem.sentence)
    }
  }

  /// A compact JSON-like rendering for error messages.
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let bool): String(bool)
    case .number(let number): NumberText.shortest(number)
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
