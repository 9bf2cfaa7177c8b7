import Foundation
import Testing

@testable import JSON

/// The writer: every format writes what the writer it replaced wrote (Foundation's `JSONSerialization`
/// and `JSONEncoder`, the page's and the timelines' own), byte for byte.
@Suite struct JSONTextTests {
  /// Strings with every character the escaping styles treat differently.
  static let strings = [
    "", "plain", "a/b", "</script>", "quote \" backslash \\", "\u{0}\u{1}\u{7}\u{8}\u{9}\u{A}\u{B}",
    "\u{C}\u{D}\u{E}\u{1F} \u{7F}\u{80}\u{2028}\u{2029}", "é😀 ✓", "&'<>",
  ]
  /// Numbers around every edge of the forms: signs of zero, whole numbers near 10^15 and 2^53, the
  /// switch to exponents, the smallest and largest.
  static let numbers: [Double] = [
    0, -0.0, 1, -1, 0.5, 0.1, 1.0 / 3, 4500, 1e15, 1e15 + 1, 9_007_199_254_740_992, 1e16, 1e21,
    1e-5, 1e-7, 5e-324, .greatestFiniteMagnitude, -2.5e-8, 123_456.789, 0.30000000000000004,
  ]
  /// Keys that sort differently by Unicode scalars and by JSONSerialization's numeric, case-blind
  /// order.
  static let keys = [
    "a10", "a2", "B", "a", "_x", "Z", "aB", "ab", "b1", "b_", "b-", "é", "e", ".md",
  ]

  /// A document of all of the above, in the writer's values and as Foundation objects.
  static func document() -> (JSONText.Value, Any) {
    var members: [(String, JSONText.Value)] = []
    var object: [String: Any] = [:]
    for (index, key) in keys.enumerated() {
      let text = strings[index % strings.count]
      let number = numbers[index % numbers.count]
      members.append(
        (
          key,
          [
            "text": .string(text), "number": .number(number), "whole": .integer(Int64(index) - 3),
            "flag": .bool(index % 2 == 0), "none": .null, "empty": .array([]),
            "nothing": .object([]),
          ]
        ))
      object[key] = [
        "text": text, "number": number, "whole": index - 3, "flag": index % 2 == 0,
        "none": NSNull(), "empty": [Any](), "nothing": [String: Any](),
      ]
    }
    members.append(("numbers", .array(numbers.map(JSONText.Value.number))))
    object["numbers"] = numbers
    members.append(("strings", .array(strings.map(JSONText.Value.string))))
    object["strings"] = strings
    members.append(("big", .unsigned(UInt64.max)))
    object["big"] = UInt64.max
    return (.object(members), object)
  }

  @Test(arguments: [
    (
      JSONText.Format.line,
      JSONSerialization.WritingOptions([.sortedKeys, .withoutEscapingSlashes])
    ),
    (
      JSONText.Format(
        keys: .sortedNumericCaseInsensitive, numbers: .plain, strings: .escapingSlash),
      JSONSerialization.WritingOptions([.sortedKeys])
    ),
    (
      JSONText.Format(
        keys: .sortedNumericCaseInsensitive, numbers: .plain, strings: .escapingSlash,
        indented: true),
      JSONSerialization.WritingOptions([.sortedKeys, .prettyPrinted])
    ),
    (
      JSONText.Format(
        keys: .sortedNumericCaseInsensitive, numbers: .plain, strings: .plain, indented: true),
      JSONSerialization.WritingOptions([.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    ),
  ])
  func formatsWriteWhatJSONSerializationWrote(
    format: JSONText.Format, options: JSONSerialization.WritingOptions
  ) throws {
    let (value, object) = Self.document()
    let written = try JSONText.string(value, format)
    let foundation = String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: options), as: UTF8.self)
    #expect(written == foundation)
  }

  /// The same document as an `Encodable` value: what `JSONEncoder` writes.
  struct Encoded: Encodable {
    struct Entry: Encodable {
      var text: String
      var number: Double
      var whole: Int
      var flag: Bool
      var none: Int?
      var absent: String?
      var empty: [Int]
      var nothing: [String: Int]

      func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey {
          case text, number, whole, flag, none, absent, empty, nothing
        }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(text, forKey: .text)
        try container.encode(number, forKey: .number)
        try container.encode(whole, forKey: .whole)
        try container.encode(flag, forKey: .flag)
        try container.encode(none, forKey: .none)
        try container.encodeIfPresent(absent, forKey: .absent)
        try container.encode(empty, forKey: .empty)
        try container.encode(nothing, forKey: .nothing)
      }
    }
    var entries: [String: Entry]
    var numbers: [Double]
    var strings: [String]
    var big: UInt64
    var small: Float
    var colour: SIMD3<Double>
  }

  static func encoded() -> Encoded {
    var entries: [String: Encoded.Entry] = [:]
    for (index, key) in keys.enumerated() {
      entries[key] = Encoded.Entry(
        text: strings[index % strings.count], number: numbers[index % numbers.count],
        whole: index - 3, flag: index % 2 == 0, none: nil, absent: nil, empty: [], nothing: [:])
    }
    return Encoded(
      entries: entries, numbers: numbers, strings: strings, big: .max, small: 0.1,
      colour: SIMD3(255, 0.5, -0.0))
  }

  @Test(arguments: [
    (
      JSONText.Format.canonical,
      JSONEncoder.OutputFormatting([.sortedKeys, .withoutEscapingSlashes])
    ),
    (
      JSONText.Format(keys: .sorted, numbers: .plain, strings: .escapingSlash),
      JSONEncoder.OutputFormatting([.sortedKeys])
    ),
    (
      JSONText.Format(keys: .sorted, numbers: .plain, strings: .plain, indented: true),
      JSONEncoder.OutputFormatting([.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    ),
    (
      JSONText.Format(keys: .sorted, numbers: .plain, strings: .escapingSlash, indented: true),
      JSONEncoder.OutputFormatting([.sortedKeys, .prettyPrinted])
    ),
  ])
  func encodedValuesWriteWhatJSONEncoderWrote(
    format: JSONText.Format, formatting: JSONEncoder.OutputFormatting
  ) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = formatting
    let foundation = String(decoding: try encoder.encode(Self.encoded()), as: UTF8.self)
    #expect(try JSONText.string(try JSONText.Value(encoding: Self.encoded()), format) == foundation)
  }

  @Test func thePageFormatKeepsSwiftsNumbersAndHidesTagsFromPages() throws {
    let data = JSONText.object([
      "error": .string("bad \"key\"\n</script>\u{1}\u{8}\u{C}/"), "n": .number(.nan),
      "one": .number(1), "count": .integer(3), "raw": .raw(Data("[1]".utf8)),
      "list": .array([.number(0.5), .null]),
    ])
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"error":"bad \"key\"\n\u003c/script>\u0001\u0008\u000c/","n":null,"one":1.0,"#
        + #""count":3,"raw":[1],"list":[0.5,null]}"#)
    #expect(JSONText.quoted("a<b") == #""a\u003cb""#)
  }

  @Test func shortestNumbersAreWholeBelowTenToTheFifteenth() throws {
    let format = JSONText.Format(keys: .given, numbers: .shortest, strings: .escapingSlash)
    let value: JSONText.Value = [
      "a": .number(4500), "b": .number(-0.0), "c": .number(1e15), "d": .number(0.25),
      "e": .number(-3), "f": "x/y",
    ]
    #expect(
      try JSONText.string(value, format)
        == #"{"a":4500,"b":0,"c":1000000000000000.0,"d":0.25,"e":-3,"f":"x\/y"}"#)
  }

  @Test func aNumberJSONCannotHoldIsRefusedOutsideThePage() {
    for number in [Double.nan, .infinity, -.infinity] {
      for format in [JSONText.Format.line, .canonical] {
        #expect(throws: JSONText.Unwritable(number: number)) {
          try JSONText.data(.array([.number(number)]), format)
        }
      }
    }
    #expect(JSONText.encode(.number(.infinity)) == Data("null".utf8))
  }
}
