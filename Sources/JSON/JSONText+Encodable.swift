import Foundation

extension JSONText.Value: Encodable {
  /// A member's name.
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Encodes the value as itself: an object keyed by its members' names in order, an array, a number,
  /// a string, a boolean or null.
  ///
  /// - Throws: `EncodingError.invalidValue` for ``raw(_:)`` bytes, which an `Encoder` cannot take.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .object(let members):
      var container = encoder.container(keyedBy: Key.self)
      for (name, value) in members { try container.encode(value, forKey: Key(stringValue: name)) }
    case .array(let items):
      var container = encoder.unkeyedContainer()
      for item in items { try container.encode(item) }
    case .string(let text): try Self.encode(text, to: encoder)
    case .number(let number): try Self.encode(number, to: encoder)
    case .integer(let number): try Self.encode(number, to: encoder)
    case .unsigned(let number): try Self.encode(number, to: encoder)
    case .bool(let flag): try Self.encode(flag, to: encoder)
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .raw:
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: encoder.codingPath, debugDescription: "raw JSON bytes cannot be encoded"))
    }
  }

  /// Encodes `value` as a single value (a string, a number or a boolean).
  private static func encode(_ value: some Encodable, to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}
