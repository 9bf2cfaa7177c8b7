/// Values written as Swift literals: `["event": "done", "frames": JSONText.Value(frames)]` is an object
/// with its members in the order written.
extension JSONText.Value: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(stringLiteral text: String) { self = .string(text) }
  public init(booleanLiteral flag: Bool) { self = .bool(flag) }
  public init(nilLiteral: ()) { self = .null }
  public init(arrayLiteral items: JSONText.Value...) { self = .array(items) }
  public init(dictionaryLiteral members: (String, JSONText.Value)...) { self = .object(members) }

  /// A string.
  public init(_ text: String) { self = .string(text) }
  /// A whole number.
  public init(_ number: Int) { self = .integer(Int64(number)) }
  /// A number.
  public init(_ number: Double) { self = .number(number) }
  /// A boolean.
  public init(_ flag: Bool) { self = .bool(flag) }
  /// An array of strings.
  public init(_ texts: [String]) { self = .array(texts.map(JSONText.Value.string)) }
  /// An array of numbers.
  public init(_ numbers: [Double]) { self = .array(numbers.map(JSONText.Value.number)) }
  /// A string, or null.
  public init(_ text: String?) { self = text.map(JSONText.Value.string) ?? .null }
  /// A whole number, or null.
  public init(_ number: Int?) { self = number.map(JSONText.Value.init) ?? .null }
  /// A number, or null.
  public init(_ number: Double?) { self = number.map(JSONText.Value.number) ?? .null }
}
