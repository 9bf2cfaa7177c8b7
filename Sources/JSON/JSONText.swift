import Foundation

/// FrameDial's one JSON writer: documents built from values, so every string is escaped, in the
/// ``Format`` each output has always had: the studio server's messages to the page, the one-line objects
/// of the CLI's `--json` outputs and of the C API, batch records, control states, timelines.
public enum JSONText {
  /// A JSON value to write; also what ``JSONText/Value/read(_:)`` reads, losing nothing a text says
  /// (the members' order, integers exactly).
  public indirect enum Value: Sendable, Equatable {
    case string(String)
    /// A number written as its shortest decimal form (the ``Format/Numbers`` say how).
    case number(Double)
    /// A whole number, written with every digit.
    case integer(Int64)
    /// A whole number above `Int64.max`, written with every digit (an inode, for one).
    case unsigned(UInt64)
    case bool(Bool)
    case null
    /// Bytes that already hold a JSON value (a state object from the backend), written as they are.
    /// Reading never makes one.
    case raw(Data)
    case array([Value])
    /// An object with its members in order (a sorting ``Format`` sorts them as it writes).
    case object([(String, Value)])

    /// An object of `members`, in any order: for a ``Format`` that sorts keys.
    public static func members(_ members: [String: Value]) -> Value {
      .object(members.map { ($0.key, $0.value) })
    }

    public static func == (lhs: Value, rhs: Value) -> Bool {
      switch (lhs, rhs) {
      case (.string(let a), .string(let b)): a == b
      case (.number(let a), .number(let b)): a == b
      case (.integer(let a), .integer(let b)): a == b
      case (.unsigned(let a), .unsigned(let b)): a == b
      case (.bool(let a), .bool(let b)): a == b
      case (.null, .null): true
      case (.raw(let a), .raw(let b)): a == b
      case (.array(let a), .array(let b)): a == b
      case (.object(let a), .object(let b)):
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
      default: false
      }
    }
  }

  /// How a document is written. Each output keeps the format it was first written in, byte for byte.
  public struct Format: Sendable, Equatable {
    /// How numbers (``Value/number(_:)``) are written.
    public enum Numbers: Sendable, Equatable {
      /// Swift's own form, `1.0` for one; a number that is not finite is written `null`. The studio's
      /// messages.
      case swift
      /// Swift's own form without a trailing `.0` (`1`, `0.5`, `1e+20`, `-0`), as Foundation's
      /// `JSONSerialization` and `JSONEncoder` write numbers; a number that is not finite cannot be
      /// written (``Unwritable``).
      case plain
      /// ``JSONText/shortest(_:)`` (`4500`, `0` for -0, `0.5`); a number that is not finite cannot be
      /// written. Timelines.
      case shortest
    }

    /// How strings are escaped. Every style escapes `"`, `\` and the control characters, and writes
    /// other characters as they are.
    public enum Strings: Sendable, Equatable {
      /// `<` as `\u003c` (never `</script>` in a document a page might embed); `\b` and `\f` as
      /// `\u0008` and `\u000c`.
      case page
      /// As Foundation writes them with `withoutEscapingSlashes`: `\b`, `\f`, `/` as it is.
      case plain
      /// As Foundation writes them by default: `/` as `\/`.
      case escapingSlash
    }

    /// The order an object's members are written in.
    public enum Keys: Sendable, Equatable {
      /// As the object gives them.
      case given
      /// Sorted by Unicode scalars (`B` before `a`, `a10` before `a2`), as `JSONEncoder` sorts them.
      case sorted
      /// Sorted with runs of digits compared as numbers and letter case ignored (`a` before `B`, `a2`
      /// before `a10`), as `JSONSerialization` sorts them.
      case sortedNumericCaseInsensitive
    }

    public var keys: Keys
    public var numbers: Numbers
    public var strings: Strings
    /// Whether the document is spread over lines, two spaces an indentation level, `"key" : value`,
    /// an empty object or array as its brackets with an empty line between (as Foundation's
    /// `prettyPrinted`); one line otherwise.
    public var indented: Bool

    public init(keys: Keys, numbers: Numbers, strings: Strings, indented: Bool = false) {
      self.keys = keys
      self.numbers = numbers
      self.strings = strings
      self.indented = indented
    }

    /// The studio's messages to the page: members in the order given, Swift's numbers, page strings.
    public static let page = Format(keys: .given, numbers: .swift, strings: .page)
    /// The CLI's `--json` lines and the C API's results: keys sorted numerically ignoring case, plain
    /// numbers and strings, one line.
    public static let line = Format(
      keys: .sortedNumericCaseInsensitive, numbers: .plain, strings: .plain)
    /// Batch records and settings, `studio.json`: keys sorted by Unicode scalars, plain numbers and
    /// strings, one line.
    public static let canonical = Format(keys: .sorted, numbers: .plain, strings: .plain)
  }

  /// A number JSON cannot hold (infinite or NaN), met in a format that does not write it as `null`.
  public struct Unwritable: Error, Equatable, CustomStringConvertible {
    /// The number.
    public var number: Double

    public var description: String {
      "\(number) cannot be written as JSON (JSON numbers are finite)"
    }

    public static func == (lhs: Unwritable, rhs: Unwritable) -> Bool {
      lhs.number.bitPattern == rhs.number.bitPattern
    }
  }

  /// The bytes of `value` in `format`.
  public static func data(_ value: Value, _ format: Format) throws(Unwritable) -> Data {
    var writer = Writer(format: format)
    try writer.write(value, depth: 0)
    return Data(writer.bytes)
  }

  /// The text of `value` in `format`.
  public static func string(_ value: Value, _ format: Format) throws(Unwritable) -> String {
    String(decoding: try data(value, format), as: UTF8.self)
  }

  /// An object with `members` in the order given, in the ``Format/page`` format.
  public static func object(_ members: KeyValuePairs<String, Value>) -> Data {
    encode(.object(members.map { ($0.key, $0.value) }))
  }

  /// The bytes of `value` in the ``Format/page`` format (which writes every value).
  public static func encode(_ value: Value) -> Data {
    (try? data(value, .page)) ?? Data("null".utf8)
  }

  /// `text` as a JSON string literal in the ``Format/page`` format.
  public static func quoted(_ text: String) -> String {
    var writer = Writer(format: .page)
    writer.quote(text)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// The shortest text that reads back to the same value: `4500` for a whole number below 10^15 (and
  /// `0` for -0), else Swift's own form (`0.5`, `1e+20`, `inf`).
  public static func shortest(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
      return value == 0 ? "0" : String(Int64(value))
    }
    return String(value)
  }

  /// Appends a document's bytes.
  private struct Writer {
    let format: Format
    var bytes: [UInt8] = []

    init(format: Format) { self.format = format }

    mutating func write(_ value: Value, depth: Int) throws(Unwritable) {
      switch value {
      case .string(let text): quote(text)
      case .number(let number): try write(number)
      case .integer(let number): append(String(number))
      case .unsigned(let number): append(String(number))
      case .bool(let flag): append(flag ? "true" : "false")
      case .null: append("null")
      case .raw(let data): bytes.append(contentsOf: data)
      case .array(let items):
        try container("[", "]", items, depth: depth) { (writer, item) throws(Unwritable) in
          try writer.write(item, depth: depth + 1)
        }
      case .object(let members):
        let ordered = format.keys.ordered(members)
        try container("{", "}", ordered, depth: depth) { (writer, member) throws(Unwritable) in
          writer.quote(member.0)
          writer.append(writer.format.indented ? " : " : ":")
          try writer.write(member.1, depth: depth + 1)
        }
      }
    }

    /// An array's or object's brackets around `elements`, each written by `element`.
    private mutating func container<Element>(
      _ opening: String, _ closing: String, _ elements: [Element], depth: Int,
      _ element: (inout Writer, Element) throws(Unwritable) -> Void
    ) throws(Unwritable) {
      append(opening)
      if format.indented && elements.isEmpty {
        append("\n\n")
        indent(depth)
      }
      for (index, item) in elements.enumerated() {
        if index > 0 { append(",") }
        if format.indented {
          append("\n")
          indent(depth + 1)
        }
        try element(&self, item)
      }
      if format.indented && !elements.isEmpty {
        append("\n")
        indent(depth)
      }
      append(closing)
    }

    private mutating func indent(_ depth: Int) {
      bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func write(_ number: Double) throws(Unwritable) {
      switch format.numbers {
      case .swift: append(number.isFinite ? "\(number)" : "null")
      case .plain:
        guard number.isFinite else { throw Unwritable(number: number) }
        let text = "\(number)"
        append(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
      case .shortest:
        guard number.isFinite else { throw Unwritable(number: number) }
        append(JSONText.shortest(number))
      }
    }

    mutating func quote(_ text: String) {
      bytes.append(UInt8(ascii: "\""))
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": append("\\\"")
        case "\\": append("\\\\")
        case "\n": append("\\n")
        case "\r": append("\\r")
        case "\t": append("\\t")
        case "/" where format.strings == .escapingSlash: append("\\/")
        case "<" where format.strings == .page: append("\\u003c")
        case "\u{8}" where format.strings != .page: append("\\b")
        case "\u{C}" where format.strings != .page: append("\\f")
        case _ where scalar.value < 0x20: append(String(format: "\\u%04x", scalar.value))
        default: bytes.append(contentsOf: String(scalar).utf8)
        }
      }
      bytes.append(UInt8(ascii: "\""))
    }

    private mutating func append(_ text: String) {
      bytes.append(contentsOf: text.utf8)
    }
  }
}

extension JSONText.Format.Keys {
  /// `members` in this order.
  fileprivate func ordered(_ members: [(String, JSONText.Value)]) -> [(String, JSONText.Value)] {
    switch self {
    case .given: members
    case .sorted: members.sorted { $0.0 < $1.0 }
    case .sortedNumericCaseInsensitive:
      members.sorted {
        $0.0.compare(
          $1.0, options: [.numeric, .caseInsensitive, .forcedOrdering],
          range: $0.0.startIndex..<$0.0.endIndex, locale: NSLocale.system as Locale)
          == .orderedAscending
      }
    }
  }
}
