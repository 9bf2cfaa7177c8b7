import Foundation

/// Reads JSON text strictly, by the grammar of RFC 8259, into a ``JSONText/Value`` (members in order,
/// whole numbers exactly) and so a ``JSONValue`` (Foundation's readers are not used: their messages name
/// neither the line nor the problem, and `JSONSerialization` lets through a key given twice in one object
/// and a number too small to be told from 0). The first problem is found with its
/// byte offset, for a message with the line and column; the keys of the outermost object are found with
/// theirs, so a bad value can be pointed at too. Values that are valid JSON but cannot be held are
/// noted with the key they belong to: a number too large for a `Double` (`1e999`) or too small to be
/// told from 0 (`1E-400`), and a string with half of a UTF-16 surrogate pair (`"\ud800"`, kept as that
/// text).
package enum JSONStrictness {
  /// What went wrong, and where.
  package struct Problem: Error, Equatable {
    /// The byte offset the problem is found at.
    package var offset: Int
    /// One sentence, without the position.
    package var sentence: String
  }

  /// A valid JSON value that FrameDial cannot hold as written.
  package struct ValueProblem: Equatable {
    package enum Kind: Equatable {
      /// A number beyond the largest `Double` (it would read as infinity).
      case tooLarge
      /// A number other than 0 that is too small for a `Double` (it would read as 0).
      case tooSmall
      /// A string with half of a surrogate pair; `text` is its escape.
      case loneSurrogate
    }
    /// The byte offset of the number, or of the escape in the string.
    package var offset: Int
    /// The number or the escape as written.
    package var text: String
    package var kind: Kind

    /// One sentence, without the position or the key.
    package var sentence: String {
      switch kind {
      case .tooLarge: "\(text) is too large to be a finite number"
      case .tooSmall: "\(text) is too small to represent (it would read as 0; write 0 for 0)"
      case .loneSurrogate:
        "\(text) is half of a UTF-16 surrogate pair without its other half, which is no character"
      }
    }
  }

  /// The outcome of reading a text.
  package struct Scan {
    /// The first problem; nil for strict JSON.
    package var problem: Problem?
    /// The byte offset of each key of the outermost object (its opening quote).
    package var topLevelKeys: [String: Int] = [:]
    /// The document read; nil when there is a problem.
    package var document: JSONText.Value?
    /// The first value that cannot be held under each key of the outermost object.
    package var valueProblems: [String: ValueProblem] = [:]
    /// The first value that cannot be held anywhere.
    package var firstValueProblem: ValueProblem?

    /// The value read, as checks see it; nil when there is a problem.
    package var value: JSONValue? { document.map(JSONValue.init) }
  }

  /// Objects and arrays nested deeper than this are refused (no text a person writes comes close).
  package static let maximumDepth = 256

  /// Reads `data` and returns its first problem and the positions of its top-level keys.
  package static func scan(_ data: Data) -> Scan {
    var reader = Reader(bytes: [UInt8](data))
    do {
      guard String(validating: reader.bytes, as: UTF8.self) != nil else {
        throw Problem(offset: firstInvalidUTF8(reader.bytes), sentence: "the text is not UTF-8")
      }
      reader.skipWhitespace()
      guard reader.index < reader.bytes.count else {
        throw Problem(
          offset: reader.index,
          sentence: "the file is empty; expected a JSON object such as {\"exposureBias\": 0.5}")
      }
      let value = try reader.value(depth: 1)
      reader.skipWhitespace()
      if reader.index < reader.bytes.count {
        throw Problem(
          offset: reader.index,
          sentence: "unexpected \(reader.found()) after the end of the JSON value")
      }
      return Scan(
        problem: nil, topLevelKeys: reader.topLevelKeys, document: value,
        valueProblems: reader.valueProblems, firstValueProblem: reader.firstValueProblem)
    } catch let problem as Problem {
      return Scan(problem: problem, topLevelKeys: reader.topLevelKeys)
    } catch {
      return Scan(problem: Problem(offset: 0, sentence: "\(error)"))
    }
  }

  /// The document `data` holds, or its first problem (a value that cannot be held included).
  package static func read(_ data: Data) throws(JSONReadError) -> JSONText.Value {
    let scan = scan(data)
    let problem =
      scan.problem
      ?? scan.firstValueProblem.map { Problem(offset: $0.offset, sentence: $0.sentence) }
    if let problem {
      let (line, column) = position(of: problem.offset, in: [UInt8](data))
      throw JSONReadError(
        offset: problem.offset, line: line, column: column, problem: problem.sentence)
    }
    return scan.document ?? .null
  }

  /// The line and column of the byte at `offset` (both from 1; columns count characters).
  package static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    let column =
      String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self)
      .unicodeScalars.count + 1
    return (line, column)
  }

  private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
    var low = 0
    var high = bytes.count
    // The longest valid prefix, found by halving (a prefix cut inside a character is invalid too, so
    // the answer lands at most three bytes early, on the character that starts the bad sequence).
    while low < high {
      let middle = (low + high + 1) / 2
      if String(validating: bytes[0..<middle], as: UTF8.self) != nil {
        low = middle
      } else {
        high = middle - 1
      }
    }
    return low
  }

  /// A cursor over the bytes.
  private struct Reader {
    let bytes: [UInt8]
    var index = 0
    var topLevelKeys: [String: Int] = [:]
    var valueProblems: [String: ValueProblem] = [:]
    var firstValueProblem: ValueProblem?
    /// The key of the outermost object whose value is being read.
    var topLevelKey: String?

    mutating func note(_ problem: ValueProblem) {
      if firstValueProblem == nil { firstValueProblem = problem }
      if let topLevelKey, valueProblems[topLevelKey] == nil { valueProblems[topLevelKey] = problem }
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
      while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        index += 1
      }
    }

    /// What stands at the cursor, for a message: "the end of the file", a word, or one character.
    func found(at offset: Int? = nil) -> String {
      let start = offset ?? index
      guard start < bytes.count else { return "the end of the file" }
      var end = start
      while end < bytes.count, end - start < 20,
        (bytes[end] >= UInt8(ascii: "a") && bytes[end] <= UInt8(ascii: "z"))
          || (bytes[end] >= UInt8(ascii: "A") && bytes[end] <= UInt8(ascii: "Z"))
          || (bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9"))
      {
        end += 1
      }
      if end > start { return "'\(String(decoding: bytes[start..<end], as: UTF8.self))'" }
      let scalar = String(decoding: bytes[start...].prefix(4), as: UTF8.self).unicodeScalars.first
      switch scalar {
      case "\n": return "a line break"
      case "\t": return "a tab"
      case let scalar?: return "'\(Character(scalar))'"
      case nil: return "a byte"
      }
    }

    mutating func value(depth: Int) throws -> JSONText.Value {
      guard depth <= JSONStrictness.maximumDepth else {
        throw Problem(
          offset: index,
          sentence: "objects and arrays are nested more than \(JSONStrictness.maximumDepth) deep")
      }
      switch current {
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "\""): return .string(try string(isKey: false))
      case let byte? where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte):
        return try number()
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return try literal()
      default:
        throw Problem(
          offset: index,
          sentence: "expected a value (a number, a string, true, false, null, an object or an "
            + "array), found \(found())")
      }
    }

    private mutating func object(depth: Int) throws -> JSONText.Value {
      var members: [(String, JSONText.Value)] = []
      var keys = Set<String>()
      if enter(closedBy: UInt8(ascii: "}")) { return .object(members) }
      while true {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else {
          let closing = current == UInt8(ascii: "}") && !members.isEmpty
          throw Problem(
            offset: index,
            sentence: closing
              ? "a comma before '}': remove it, or add a key after it"
              : "expected a key in double quotes, found \(found())")
        }
        let keyOffset = index
        let key = try string(isKey: true)
        guard keys.insert(key).inserted else {
          throw Problem(
            offset: keyOffset,
            sentence: "the key \"\(EchoText.readable(key))\" appears twice in one object")
        }
        if depth == 1 { topLevelKeys[key] = keyOffset }
        skipWhitespace()
        guard current == UInt8(ascii: ":") else {
          throw Problem(
            offset: index,
            sentence: "expected ':' after the key \"\(EchoText.readable(key))\", found \(found())")
        }
        index += 1
        skipWhitespace()
        if depth == 1 { topLevelKey = key }
        members.append((key, try value(depth: depth + 1)))
        if try ends(
          closedBy: UInt8(ascii: "}"), where: "after the value of \"\(EchoText.readable(key))\"")
        {
          return .object(members)
        }
      }
    }

    private mutating func array(depth: Int) throws -> JSONText.Value {
      var items: [JSONText.Value] = []
      if enter(closedBy: UInt8(ascii: "]")) { return .array(items) }
      while true {
        skipWhitespace()
        if current == UInt8(ascii: "]") {
          throw Problem(
            offset: index, sentence: "a comma before ']': remove it, or add a value after it")
        }
        items.append(try value(depth: depth + 1))
        if try ends(closedBy: UInt8(ascii: "]"), where: "in an array") { return .array(items) }
      }
    }

    /// Steps over an object's or array's opening bracket and the white space after it; when `closing`
    /// follows at once, steps over it too and returns true: the object or array is empty.
    private mutating func enter(closedBy closing: UInt8) -> Bool {
      index += 1
      skipWhitespace()
      guard current == closing else { return false }
      index += 1
      return true
    }

    /// After a member of an object or array: steps over the white space and the comma or `closing`
    /// that must follow, and returns true at `closing` (the end). Anything else is a problem, said to
    /// be `place` ("in an array").
    private mutating func ends(closedBy closing: UInt8, where place: String) throws -> Bool {
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","):
        index += 1
        return false
      case closing:
        index += 1
        return true
      default:
        throw Problem(
          offset: index,
          sentence:
            "expected ',' or '\(Character(Unicode.Scalar(closing)))' \(place), found \(found())")
      }
    }

    /// Reads a string at the cursor and returns it with its escapes resolved (half of a surrogate pair
    /// is kept as its escape, and noted when the string is a value).
    private mutating func string(isKey: Bool) throws -> String {
      let start = index
      index += 1
      var text: [UInt8] = []
      while let byte = current {
        switch byte {
        case UInt8(ascii: "\""):
          index += 1
          return String(decoding: text, as: UTF8.self)
        case UInt8(ascii: "\\"):
          try escape(into: &text, isKey: isKey)
        case 0x00..<0x20:
          throw Problem(
            offset: start,
            sentence: "a string that does not close before \(found()) (a missing '\"'?)")
        default:
          text.append(byte)
          index += 1
        }
      }
      throw Problem(offset: start, sentence: "a string that never closes (a missing '\"'?)")
    }

    /// The four hex digits of a `\\uXXXX` escape starting at `offset`, or nil.
    private func unicodeEscape(at offset: Int) -> UInt32? {
      guard offset + 6 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"),
        bytes[offset + 1] == UInt8(ascii: "u")
      else { return nil }
      let digits = bytes[(offset + 2)..<(offset + 6)]
      guard digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else { return nil }
      return UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
    }

    private mutating func escape(into text: inout [UInt8], isKey: Bool) throws {
      let start = index
      index += 1
      let simple: [UInt8: UInt8] = [
        UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
        UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
      ]
      if let byte = current, let replacement = simple[byte] {
        text.append(replacement)
        index += 1
        return
      }
      if let code = unicodeEscape(at: start) {
        if (0xD800..<0xDC00).contains(code), let low = unicodeEscape(at: start + 6),
          (0xDC00..<0xE000).contains(low),
          let scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
        {
          text.append(contentsOf: Array(String(Character(scalar)).utf8))
          index = start + 12
        } else if let scalar = Unicode.Scalar(code) {
          text.append(contentsOf: Array(String(Character(scalar)).utf8))
          index = start + 6
        } else {
          // Half of a surrogate pair is no character: kept as its escape, so it can be shown.
          let written = Array(bytes[start..<(start + 6)])
          text.append(contentsOf: written)
          if !isKey {
            note(
              ValueProblem(
                offset: start, text: String(decoding: written, as: UTF8.self), kind: .loneSurrogate)
            )
          }
          index = start + 6
        }
        return
      }
      throw Problem(
        offset: start,
        sentence:
          "an unknown escape in a string (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
    }

    /// A number: a whole number written without a fraction or exponent exactly (as an integer when it
    /// fits one; `-0` stays -0), any other as the nearest `Double`.
    private mutating func number() throws -> JSONText.Value {
      let start = index
      func digits() -> Int {
        let first = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
          index += 1
        }
        return index - first
      }
      if current == UInt8(ascii: "-") { index += 1 }
      let whole = index
      var valid = digits() > 0 && !(bytes[whole] == UInt8(ascii: "0") && index - whole > 1)
      if valid, current == UInt8(ascii: ".") {
        index += 1
        valid = digits() > 0
      }
      if valid, current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        index += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
        valid = digits() > 0
      }
      // A number runs into the next letter or digit: "1.5x", "0x10".
      if valid, let byte = current,
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: ".")
      {
        valid = false
      }
      guard valid else {
        var end = index
        while end < bytes.count, !Set(Array(" \t\r\n,]}".utf8)).contains(bytes[end]) { end += 1 }
        throw Problem(
          offset: start,
          sentence:
            "'\(EchoText.readable(String(decoding: bytes[start..<end], as: UTF8.self)))' is not a JSON number "
            + "(such as 2, -0.5 or 1e3)")
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      if text != "-0", !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
        if let integer = Int64(text) { return .integer(integer) }
        if let unsigned = UInt64(text) { return .unsigned(unsigned) }
      }
      let number = Double(text) ?? .nan
      if !number.isFinite {
        note(ValueProblem(offset: start, text: text, kind: .tooLarge))
        return .number(0)
      }
      let mantissa = text.prefix { $0 != "e" && $0 != "E" }
      if number == 0, mantissa.contains(where: { $0 >= "1" && $0 <= "9" }) {
        note(ValueProblem(offset: start, text: text, kind: .tooSmall))
      }
      return .number(number)
    }

    private mutating func literal() throws -> JSONText.Value {
      let words: [(String, JSONText.Value)] = [
        ("true", .bool(true)), ("false", .bool(false)), ("null", .null),
      ]
      for (word, value) in words where bytes[index...].starts(with: Array(word.utf8)) {
        let end = index + word.utf8.count
        let runsOn =
          end < bytes.count
          && ((bytes[end] >= UInt8(ascii: "a") && bytes[end] <= UInt8(ascii: "z"))
            || (bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9")))
        if !runsOn {
          index = end
          return value
        }
      }
      throw Problem(
        offset: index,
        sentence: "expected a value (a number, a string, true, false, null, an object or an "
          + "array), found \(found())")
    }
  }
}
