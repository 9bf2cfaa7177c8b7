import Foundation
import Synchronization
import Testing

@testable import Controls

/// Control values no person types: megabytes of text, a million unknown keys, NUL characters, numbers
/// beyond a Double, halves of surrogate pairs, values a hair outside a range.
@Suite struct HostileValueTests {
  static let huge = String(repeating: "x", count: 2_000_000)

  func setMessage(_ assignment: String) -> String {
    caught(ControlStateError.self) { _ = try ControlState().applying(assignment: assignment) }?
      .description ?? "no error"
  }

  func jsonMessage(_ text: String) -> String {
    caught(ControlStateError.self) {
      _ = try ControlState.identity.applying(json: Data(text.utf8))
    }?.description ?? "no error"
  }

  @Test func editDistanceIsNotMeasuredForCandidatesOfAnotherLength() {
    let calls = Mutex(0)
    let counting: ([Character], [Character]) -> Int = { a, b in
      calls.withLock { $0 += 1 }
      return NearestWord.editDistance(a, b)
    }
    let candidates = ["none", "auto", "daylight", "tungsten", "fluorescent"]
    #expect(NearestWord.suggestion(for: Self.huge, among: candidates, distance: counting) == nil)
    #expect(calls.withLock { $0 } == 0)
    // "tungstn" (7 letters) is measured against the 8-letter words only, which allow 2 edits:
    // "daylight" and "tungsten"; "none", "auto" and "fluorescent" are too short or too long.
    #expect(
      NearestWord.suggestion(for: "tungstn", among: candidates, distance: counting) == "tungsten")
    #expect(calls.withLock { $0 } == 2)
  }

  @Test func aTwoMegabyteValueGivesAShortMessage() {
    for assignment in ["wb=\(Self.huge)", "filter=\(Self.huge)", "ev=\(Self.huge)", Self.huge] {
      let message = setMessage(assignment)
      #expect(message.count < 300, "\(message.prefix(400))")
      #expect(message.contains("2000000 characters") || message.contains("2000003 characters"))
    }
    // As the command line reports it: the setting, then the problem.
    for assignment in ["wb=\(Self.huge)", "tint=\(Self.huge)", "zoom=\(Self.huge)"] {
      let layered =
        caught(ControlStateError.self) {
          _ = try ControlState.layered(base: .identity, stateFiles: [], assignments: [assignment])
        }?.description ?? "no error"
      #expect(layered.count < 300 && layered.hasPrefix("In --set "), "\(layered.prefix(400))")
    }
    let json = jsonMessage(#"{"filter": "\#(Self.huge)"}"#)
    #expect(json.count < 300 && json.contains("2000000 characters"), "\(json.prefix(400))")
    let unknown = jsonMessage(#"{"\#(Self.huge)": 1}"#)
    #expect(
      unknown.count < 400 && unknown.contains("Unknown control key"), "\(unknown.prefix(500))")
    let wrongType = jsonMessage(#"{"tint": "\#(Self.huge)"}"#)
    #expect(wrongType.count < 400 && wrongType.contains("(a string)"), "\(wrongType.prefix(500))")
  }

  @Test func onlyTheFirstUnknownKeyIsReported() {
    let keys = (0..<200_000).map { #""unknown\#($0)": \#($0)"# }
    let message = jsonMessage("{\"tint\": 5, " + keys.joined(separator: ", ") + "}")
    #expect(message.contains(#"Unknown control key "unknown0""#), "\(message.prefix(300))")
    #expect(!message.contains("unknown1"))
    // Keys before the first unknown one are still checked first, in the order written.
    let earlier = jsonMessage(#"{"zoom": 99, "bogus": 1, "tint": 999}"#)
    #expect(earlier.contains("zoom") && earlier.contains("out of range"), "\(earlier)")
    let later = jsonMessage(#"{"bogus": 1, "tint": 999}"#)
    #expect(later.contains(#"Unknown control key "bogus""#), "\(later)")
  }

  @Test func aTimelineLineEchoesAShortValueAndOneUnknownField() throws {
    func problem(_ line: String) -> String {
      caught(TimelineError.self) { _ = try Timeline(jsonLines: line) }?.description ?? "no error"
    }
    let control = problem(#"{"time":0,"type":"slide","control":"\#(Self.huge)","value":1}"#)
    #expect(control.count < 400 && control.contains("2000000 characters"), "\(control.prefix(500))")
    let type = problem(#"{"time":0,"type":"\#(Self.huge)"}"#)
    #expect(type.count < 400, "\(type.prefix(500))")
    let fields = (0..<50_000).map { #""extra\#($0)":1"# }.joined(separator: ",")
    let extra = problem(#"{"time":0,"type":"press","phase":"ended","kind":"primary",\#(fields)}"#)
    #expect(extra.contains(#"unknown field "extra0""#) && extra.count < 200, "\(extra.prefix(300))")
  }

  @Test func aNulInAKeyOrValueIsShownEscaped() {
    let message = jsonMessage(#"{"exposure\u0000Bias": 1}"#)
    #expect(message.contains(#"Unknown control key "exposure\0Bias""#), "\(message)")
    #expect(!message.contains("\0"))
    let value = setMessage("filter=noir\0\n")
    #expect(value.contains(#""noir\0\n""#) || value.contains(#""noir\0""#), "\(value)")
    #expect(!value.contains("\0") && !value.contains("\n"))
    #expect(EchoText.readable("a\u{1B}b\tc") == #"a\u{1B}b\tc"#)
  }

  @Test func numbersBeyondADoubleAreNamedAsWritten() {
    let large = jsonMessage("{\n  \"exposureBias\": 1e999}")
    #expect(
      large == #"At line 2, column 19: The value 1e999 for "exposureBias" is not a finite number; "#
        + "allowed: -8 … 8 EV.", "\(large)")
    let small = jsonMessage(#"{"tint": 1E-400}"#)
    #expect(
      small.contains(#"The value 1E-400 for "tint" is too small to represent (it would read as 0"#),
      "\(small)")
    #expect(
      setMessage("ev=1e999").contains(#"The value 1e999 for "exposure-bias" is not a finite"#))
    #expect(setMessage("tint=-1E-400").contains(#"The value -1E-400 for "tint" is too small"#))
    // Zero written any way is 0; a tiny number a Double holds is taken.
    #expect((try? ControlState().applying(assignment: "tint=0e-999").tint) == 0)
    #expect((try? ControlState().applying(json: Data(#"{"tint": 0.0E-500}"#.utf8)).tint) == 0)
    #expect(
      (try? ControlState().applying(assignment: "tint=5e-324").tint) == .leastNonzeroMagnitude)
    // In a timeline or an options file: the sentence, with its line and column.
    let timeline = caught(TimelineError.self) {
      _ = try Timeline(
        jsonLines: #"{"time":1e999,"type":"press","phase":"ended","kind":"primary"}"#)
    }
    #expect(timeline?.description.contains("1e999 is too large to be a finite number") == true)
    #expect(setMessage("ev=1.2.3").contains("wrong type"))
  }

  @Test func halfASurrogatePairIsNamedNotFoundationsText() throws {
    let message = jsonMessage(#"{"filter": "mono\ud800"}"#)
    #expect(
      message == #"At line 1, column 17: The value for "filter" holds \ud800, half of a UTF-16 "#
        + "surrogate pair without its other half, which is no character.", "\(message)")
    let key = jsonMessage(#"{"\udc00zoom": 2}"#)
    #expect(key.contains(#"Unknown control key "\udc00zoom""#), "\(key)")
    // A whole pair is one character, as Foundation reads it.
    let pair = jsonMessage(#"{"filter": "\ud83d\ude00"}"#)
    #expect(pair.contains("\"😀\" for \"filter\" is not valid"), "\(pair)")
    #expect(
      try JSONValue.parse(Data(#"["\u00e9\ud83d\ude00", 1.5e3, true, null]"#.utf8))
        == .array([.string("é😀"), .number(1500), .bool(true), .null]))
  }

  @Test func rangeMessagesShowEveryDigitOfTheValue() {
    #expect(
      setMessage("zoom=16.0000001").contains("The value 16.0000001 for \"zoom\" is out of range"))
    #expect(
      jsonMessage(#"{"exposureBias": -8.00001}"#).contains("The value -8.00001 for"),
      "\(jsonMessage(#"{"exposureBias": -8.00001}"#))")
    #expect(setMessage("ev=9").contains("The value 9 for"))
  }
}
