import Foundation

extension JSONText.Value {
  /// The value `encodable` encodes itself to, as Foundation's `JSONEncoder` would see it: a keyed
  /// container is an object with its members in the order encoded (a member left out by
  /// `encodeIfPresent` is absent), an unkeyed container an array, `nil` null, integers exact, a `Float`
  /// written with its own digits. Dates, `Data` and URLs get no special form (FrameDial encodes none).
  public init(encoding encodable: some Encodable) throws {
    let root = EncodedNode()
    try encodable.encode(to: ValueEncoder(node: root, codingPath: []))
    self = root.value
  }
}

/// A value being encoded: empty until a container or a single value is given to it.
private final class EncodedNode {
  enum Content {
    case empty
    case single(JSONText.Value)
    case object([(String, EncodedNode)])
    case array([EncodedNode])
  }

  var content = Content.empty

  var value: JSONText.Value {
    switch content {
    case .empty: .object([])
    case .single(let value): value
    case .object(let members): .object(members.map { ($0.0, $0.1.value) })
    case .array(let items): .array(items.map(\.value))
    }
  }

  /// A new member `key` of this object (made one if it is not), or replaces the member of that name.
  func member(_ key: String) -> EncodedNode {
    let node = EncodedNode()
    var members: [(String, EncodedNode)] = []
    if case .object(let existing) = content { members = existing }
    if let index = members.firstIndex(where: { $0.0 == key }) {
      members[index].1 = node
    } else {
      members.append((key, node))
    }
    content = .object(members)
    return node
  }

  /// A new item at the end of this array (made one if it is not).
  func item() -> EncodedNode {
    let node = EncodedNode()
    var items: [EncodedNode] = []
    if case .array(let existing) = content { items = existing }
    items.append(node)
    content = .array(items)
    return node
  }

  func makeObject() {
    if case .object = content { return }
    content = .object([])
  }

  func makeArray() {
    if case .array = content { return }
    content = .array([])
  }

  /// Sets `value` here: a number, string or boolean as itself, anything else by its own `encode(to:)`.
  func set(_ value: some Encodable, codingPath: [any CodingKey]) throws {
    switch value {
    case let text as String: content = .single(.string(text))
    case let flag as Bool: content = .single(.bool(flag))
    case let number as Double: content = .single(.number(number))
    case let number as Float: content = .single(.number(Double("\(number)") ?? Double(number)))
    case let number as any FixedWidthInteger:
      if let signed = Int64(exactly: number) {
        content = .single(.integer(signed))
      } else {
        content = .single(.unsigned(UInt64(truncatingIfNeeded: number)))
      }
    default: try value.encode(to: ValueEncoder(node: self, codingPath: codingPath))
    }
  }
}

private struct ValueEncoder: Encoder {
  let node: EncodedNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.makeObject()
    return KeyedEncodingContainer(KeyedContainer(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.makeArray()
    return UnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleContainer(node: node, codingPath: codingPath)
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodedNode
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws {
    node.member(key.stringValue).content = .single(.null)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try node.member(key.stringValue).set(value, codingPath: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = node.member(key.stringValue)
    child.makeObject()
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = node.member(key.stringValue)
    child.makeArray()
    return UnkeyedContainer(node: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    ValueEncoder(node: node.member("super"), codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    ValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let node: EncodedNode
  let codingPath: [any CodingKey]

  var count: Int {
    if case .array(let items) = node.content { return items.count }
    return 0
  }

  mutating func encodeNil() throws { node.item().content = .single(.null) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try node.item().set(value, codingPath: codingPath)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = node.item()
    child.makeObject()
    return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = node.item()
    child.makeArray()
    return UnkeyedContainer(node: child, codingPath: codingPath)
  }

  mutating func superEncoder() -> any Encoder {
    ValueEncoder(node: node.item(), codingPath: codingPath)
  }
}

private struct SingleContainer: SingleValueEncodingContainer {
  let node: EncodedNode
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws { node.content = .single(.null) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try node.set(value, codingPath: codingPath)
  }
}
