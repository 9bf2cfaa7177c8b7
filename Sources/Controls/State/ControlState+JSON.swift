import Foundation
import JSON

extension ControlState: Codable {
  private struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ key: ControlKey) { stringValue = key.jsonKey }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Decodes a JSON object with any subset of the JSON keys over the identity state.
  ///
  /// Unknown keys, wrong types and out-of-range values throw `ControlStateError`.
  public init(from decoder: any Decoder) throws {
    let value = try decoder.singleValueContainer().decode(JSONValue.self)
    self = try ControlState.identity.applying(jsonValue: value)
  }

  /// Encodes every key as ``jsonValue`` holds it.
  public func encode(to encoder: any Encoder) throws {
    try jsonValue.encode(to: encoder)
  }

  /// Every key, in the vocabulary's order: numbers as numbers, `zoomCenter` as `[x, y]`,
  /// `whiteBalance` as a string (`"none"`, `"auto"`, a preset name) or, for a temperature, a number of
  /// kelvin; `filter` as its name.
  public var jsonValue: JSONText.Value {
    .object(
      ControlKey.allCases.map { key in
        let value: JSONText.Value =
          switch key.descriptor.kind {
          case .number(_, _, let value): .number(self[keyPath: value])
          case .point: .array([.number(zoomCenter.x), .number(zoomCenter.y)])
          case .whiteBalance:
            if case .kelvin(let kelvin) = whiteBalance {
              .number(kelvin)
            } else {
              .string(whiteBalance.text)
            }
          case .filter: .string(filter.rawValue)
          case .toggle(let value): .bool(self[keyPath: value])
          }
        return (key.jsonKey, value)
      })
  }

  /// Returns this state with the keys of a JSON object applied over it (a state file layered on top).
  ///
  /// - Throws: `ControlStateError.at` with the line and column of a syntax error, or of the key whose
  ///   value is bad (naming the key, the value and the allowed range); keys are checked in the order
  ///   they are written.
  public func applying(json data: Data) throws(ControlStateError) -> ControlState {
    let scan = JSONStrictness.scan(data)
    let bytes = [UInt8](data)
    func located(_ offset: Int, _ error: ControlStateError) -> ControlStateError {
      let (line, column) = JSONStrictness.position(of: offset, in: bytes)
      return .at(line: line, column: column, error)
    }
    if let problem = scan.problem { throw located(problem.offset, .invalidJSON(problem.sentence)) }
    let value = scan.value ?? .null
    guard case .object(let members) = value else {
      if let problem = scan.firstValueProblem {
        throw located(problem.offset, .invalidJSON(problem.sentence))
      }
      let start = bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? 0
      throw located(start, Self.notAnObject(value))
    }
    // One pass finds the first unknown key (an object of a million unknown keys reports one); only the
    // known keys written before it, at most one for each control, are sorted and checked.
    var known: [(offset: Int, name: String, key: ControlKey)] = []
    var firstUnknown: (offset: Int, name: String)?
    for name in members.keys {
      let offset = scan.topLevelKeys[name] ?? 0
      if let key = Self.knownKey(json: name) {
        known.append((offset, name, key))
      } else if offset < firstUnknown?.offset ?? .max {
        firstUnknown = (offset, name)
      }
    }
    var state = self
    for (offset, name, key) in known.sorted(by: { $0.offset < $1.offset })
    where offset < firstUnknown?.offset ?? .max {
      guard let member = members[name] else { continue }
      if let problem = scan.valueProblems[name] {
        throw located(problem.offset, key.unheld(problem))
      }
      do {
        state = try state.applying(key, json: member)
      } catch {
        throw located(offset, error)
      }
    }
    if let firstUnknown {
      do {
        _ = try ControlKey(jsonKey: firstUnknown.name)
      } catch {
        throw located(firstUnknown.offset, error)
      }
    }
    return state
  }

  /// The control a JSON key names, or nil for an unknown key (without building its error).
  private static func knownKey(json name: String) -> ControlKey? {
    jsonNames[name]
  }

  /// Every JSON key and alias, with its control.
  private static let jsonNames: [String: ControlKey] = Dictionary(
    ControlKey.allCases.flatMap { key in ([key.jsonKey] + key.jsonAliases).map { ($0, key) } },
    uniquingKeysWith: { first, _ in first })

  private static func notAnObject(_ value: JSONValue) -> ControlStateError {
    .invalidJSON(
      "expected an object with keys such as \"exposureBias\", found \(value.typeName)")
  }

  /// The state as a JSON object with sorted keys (``jsonValue``, with `/` escaped), which
  /// `applying(json:)` and `JSONDecoder` read back.
  public func jsonData(prettyPrinted: Bool = false) throws -> Data {
    var format = JSONText.Format.state
    format.indented = prettyPrinted
    return try JSONText.data(jsonValue, format)
  }

  /// Returns this state with the keys of the JSON object `jsonValue` applied over it, in the keys'
  /// order (a state met inside another document, whose keys' places are not known).
  package func applying(jsonValue: JSONValue) throws(ControlStateError) -> ControlState {
    guard case .object(let members) = jsonValue else { throw Self.notAnObject(jsonValue) }
    var state = self
    for name in members.keys.sorted() {
      guard let value = members[name] else { continue }
      state = try state.applying(ControlKey(jsonKey: name), json: value)
    }
    return state
  }

  private func applying(_ key: ControlKey, json value: JSONValue) throws(ControlStateError)
    -> ControlState
  {
    var state = self
    switch key.descriptor.kind {
    case .number(let range, _, let target):
      state[keyPath: target] = try key.number(fromJSON: value, in: range)
    case .point(let range): state.zoomCenter = try key.point(fromJSON: value, in: range)
    case .whiteBalance(let kelvin):
      switch value {
      case .string(let text):
        state.whiteBalance = try WhiteBalance(parsing: text, current: whiteBalance)
      case .number:
        state.whiteBalance = .kelvin(try key.number(fromJSON: value, in: kelvin))
      default: throw key.wrongType(value, expected: "a string or a number of kelvin")
      }
    case .filter:
      guard case .string(let text) = value else { throw key.wrongType(value, expected: "a string") }
      state.filter = try Filter(parsing: text)
    case .toggle(let target):
      switch value {
      case .bool(let on): state[keyPath: target] = on
      case .string(let text): state[keyPath: target] = try key.toggle(from: text)
      default: throw key.wrongType(value, expected: "true, false, \"on\" or \"off\"")
      }
    }
    return state
  }
}

extension ControlKey {
  /// The error for a value of this key that JSON can write but FrameDial cannot hold.
  func unheld(_ problem: JSONStrictness.ValueProblem) -> ControlStateError {
    switch problem.kind {
    case .tooLarge: .notFinite(key: jsonKey, value: problem.text, allowed: allowedValues)
    case .tooSmall: .tooSmall(key: jsonKey, value: problem.text, allowed: allowedValues)
    case .loneSurrogate: .notACharacter(key: jsonKey, escape: problem.text)
    }
  }

  func wrongType(_ value: JSONValue, expected: String) -> ControlStateError {
    .wrongType(
      key: jsonKey, value: "\(EchoText.readable(value.description)) (\(value.typeName))",
      expected: "\(expected); allowed: \(allowedValues)")
  }

  func number(fromJSON value: JSONValue, in range: ClosedRange<Double>) throws(ControlStateError)
    -> Double
  {
    guard case .number(let number) = value else { throw wrongType(value, expected: "a number") }
    try check(number, in: range)
    return number
  }

  func point(fromJSON value: JSONValue, in range: ClosedRange<Double>) throws(ControlStateError)
    -> ZoomCenter
  {
    switch value {
    case .array(let items) where items.count == 2:
      return ZoomCenter(
        x: try number(fromJSON: items[0], in: range),
        y: try number(fromJSON: items[1], in: range))
    case .object(let members) where Set(members.keys) == ["x", "y"]:
      return ZoomCenter(
        x: try number(fromJSON: members["x"] ?? .null, in: range),
        y: try number(fromJSON: members["y"] ?? .null, in: range))
    default:
      throw wrongType(value, expected: "[x, y] or {\"x\": x, \"y\": y}")
    }
  }
}

extension JSONText.Format {
  /// A control state's JSON form: keys sorted, plain numbers, `/` escaped (as `JSONEncoder` wrote it).
  static let state = JSONText.Format(keys: .sorted, numbers: .plain, strings: .escapingSlash)
}
