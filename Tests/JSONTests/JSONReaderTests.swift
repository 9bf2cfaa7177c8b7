import Foundation
import Testing

@testable import JSON

/// The strict reader's guarantees, for every document it reads: a key given twice, nesting deeper than
/// 256, numbers a `Double` cannot hold and halves of surrogate pairs are refused by name, line and
/// column, wherever they are.
@Suite struct JSONReaderTests {
  func problem(_ text: String) -> String? {
    do {
      _ = try JSONText.Value.read(Data(text.utf8))
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aKeyGivenTwiceIsRefusedAtAnyDepth() {
    #expect(
      problem(#"{"a": 1, "a": 2}"#)
        == #"the key "a" appears twice in one object (line 1, column 10)"#)
    #expect(
      problem("{\"outer\": [{\"x\": 1,\n  \"x\": 1}]}")
        == #"the key "x" appears twice in one object (line 2, column 3)"#)
    // The same key in two objects is no repeat.
    #expect(problem(#"[{"a": 1}, {"a": 1}]"#) == nil)
  }

  @Test func nestingDeeperThan256IsRefused() {
    let deepest = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
    #expect(problem(deepest) == nil)
    let deeper = "{\"a\":" + deepest + "}"
    #expect(
      problem(deeper) == "objects and arrays are nested more than 256 deep (line 1, column 261)")
  }

  @Test func numbersADoubleCannotHoldAreRefusedWhereverTheyAre() {
    #expect(
      problem(#"{"a": [1, {"b": 1e999}]}"#)
        == "1e999 is too large to be a finite number (line 1, column 17)")
    #expect(
      problem("[0, -1E-400]")
        == "-1E-400 is too small to represent (it would read as 0; write 0 for 0) (line 1, column 5)"
    )
    #expect(problem("[0e-999, 5e-324]") == nil)
  }

  @Test func halfASurrogatePairInAValueIsRefusedWhereverItIs() throws {
    #expect(
      problem(#"{"a": {"b": ["x\ud800"]}}"#)
        == #"\ud800 is half of a UTF-16 surrogate pair without its other half, which is no "#
        + "character (line 1, column 16)")
    // In a key it is kept as its escape: a key is looked up, and an unknown one is named.
    #expect(
      try JSONText.Value.read(Data(#"{"\udc00k": 1}"#.utf8))
        == .object([(#"\udc00k"#, .integer(1))]))
  }

  @Test func membersKeepTheirOrderAndWholeNumbersEveryDigit() throws {
    let value = try JSONText.Value.read(
      Data(
        #"{"z": 18446744073709551615, "a": -9223372036854775808, "m": [1.5e3, -0, 0, 2.0]}"#.utf8))
    #expect(
      value
        == .object([
          ("z", .unsigned(.max)), ("a", .integer(.min)),
          ("m", .array([.number(1500), .number(-0.0), .integer(0), .number(2)])),
        ]))
    if case .array(let items)? = value["m"], case .number(let zero) = items[1] {
      #expect(zero.sign == .minus)
    } else {
      Issue.record("-0 is not a number: \(value)")
    }
    #expect(
      try JSONText.string(value, .line)
        == #"{"a":-9223372036854775808,"m":[1500,-0,0,2],"z":18446744073709551615}"#)
  }

  @Test func aValueReadForChecksIsTheDocumentsValue() throws {
    #expect(
      try JSONValue.read(Data(#"["\u00e9\ud83d\ude00", 1.5e3, true, null, {"k": [2]}]"#.utf8))
        == .array([
          .string("é😀"), .number(1500), .bool(true), .null, .object(["k": .array([.number(2)])]),
        ]))
    #expect(try JSONValue.read(Data("-0".utf8)).number?.sign == .minus)
    #expect(throws: JSONReadError.self) { try JSONValue.read(Data("[1,]".utf8)) }
  }
}
