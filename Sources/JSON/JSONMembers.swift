extension JSONText.Value {
  /// The member named `key` of an object; nil when there is none or the value is no object. (A
  /// document read never gives a key twice; in one built with a key twice, the first counts.)
  public subscript(key: String) -> JSONText.Value? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// A whole number's value (written without a fraction or an exponent, up to `Int64.max`); nil for
  /// any other value.
  public var integer: Int64? {
    guard case .integer(let number) = self else { return nil }
    return number
  }
}

extension JSONValue {
  /// The member named `key` of an object; nil when there is none or the value is no object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }
}

extension JSONValue {
  /// A string's text; nil for any other value.
  public var string: String? {
    guard case .string(let text) = self else { return nil }
    return text
  }

  /// A number's value; nil for any other value.
  public var number: Double? {
    guard case .number(let number) = self else { return nil }
    return number
  }

  /// A boolean's value; nil for any other value.
  public var bool: Bool? {
    guard case .bool(let flag) = self else { return nil }
    return flag
  }

  /// An object's members; nil for any other value.
  public var members: [String: JSONValue]? {
    guard case .object(let members) = self else { return nil }
    return members
  }

  /// The texts of an array of strings; nil for any other value (an array holding anything but strings
  /// too).
  public var strings: [String]? {
    guard case .array(let items) = self else { return nil }
    let texts = items.compactMap(\.string)
    return texts.count == items.count ? texts : nil
  }
}
