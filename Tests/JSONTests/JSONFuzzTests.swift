import Foundation
import SeededRandom
import Testing

@testable import JSON

/// Seeded random texts for the reader: each is read or refused with a sentence and its place, never a
/// crash, and a document read is written and read back to the same value. A fixed seed makes a failure
/// reproducible.
@Suite struct JSONFuzzTests {
  static let tokens = [
    "{", "}", "[", "]", ",", ":", "\"", "\"a\"", "\"b\"", "\"a\":", "0", "-0", "1", "-1", "0.5",
    "1e308",
    "-1e308", "1e999", "1E-400", "18446744073709551616", "9223372036854775807", "true", "false",
    "null", "nul", " ", "\n", "\\", "\\u", "\\ud800", "\\u00e9", "\u{0}", "é", "😀", "/", "\"x/y\"",
    ",,",
  ]

  @Test func textsAreReadOrRefusedAndReadBackAsWritten() throws {
    var generator = SeededGenerator(seed: 39)
    var read = 0
    for _ in 0..<20_000 {
      var text = ""
      for _ in 0..<Int(generator.next() % 12) {
        text += Self.tokens[Int(generator.next() % UInt64(Self.tokens.count))]
      }
      if generator.next() % 3 == 0 { text = "[" + text + "]" }
      let value: JSONText.Value
      do {
        value = try JSONText.Value.read(Data(text.utf8))
      } catch {
        #expect(error.description.hasSuffix(")") && error.description.contains("(line "), "\(text)")
        continue
      }
      read += 1
      for format in [JSONText.Format.line, .canonical, .page] {
        let written = try JSONText.data(value, format)
        #expect(JSONValue(try JSONText.Value.read(written)) == JSONValue(value), "\(text)")
      }
    }
    #expect(read > 1000)
  }
}
