import Foundation
import Testing

@testable import Controls

@Suite struct ControlStateJSONTests {
  private func decode(_ json: String) throws -> ControlState {
    try JSONDecoder().decode(ControlState.self, from: Data(json.utf8))
  }

  @Test func decodesSubsetsOverIdentity() throws {
    let state = try decode(#"{"exposureBias": 0.5, "whiteBalance": "daylight"}"#)
    #expect(state == ControlState(exposureBias: 0.5, whiteBalance: .preset(.daylight)))
  }

  @Test func whiteBalanceIsAStringOrANumberOfKelvin() throws {
    #expect(try decode(#"{"whiteBalance": 4500}"#).whiteBalance == .kelvin(4500))
    #expect(try decode(#"{"whiteBalance": "4500K"}"#).whiteBalance == .kelvin(4500))
    #expect(try decode(#"{"whiteBalance": "auto"}"#).whiteBalance == .auto)
  }

  @Test func zoomCenterIsAnArrayOrAnObject() throws {
    #expect(try decode(#"{"zoomCenter": [0.2, 0.8]}"#).zoomCenter == ZoomCenter(x: 0.2, y: 0.8))
    #expect(
      try decode(#"{"zoomCenter": {"x": 0.3, "y": 0.4}}"#).zoomCenter == ZoomCenter(x: 0.3, y: 0.4))
    #expect(throws: ControlStateError.self) { try decode(#"{"zoomCenter": [0.2]}"#) }
  }

  @Test func errorsNameKeyValueAndRange() {
    let unknown = caught(ControlStateError.self) { _ = try decode(#"{"brightness": 1}"#) }
    #expect(unknown?.description.contains("brightness") == true)
    #expect(unknown?.description.contains("exposureBias") == true)

    let wrongType = caught(ControlStateError.self) { _ = try decode(#"{"zoom": "2"}"#) }
    let wrongText = wrongType?.description ?? ""
    #expect(
      wrongText.contains("zoom") && wrongText.contains("\"2\"") && wrongText.contains("1 … 16"))

    let boolean = caught(ControlStateError.self) { _ = try decode(#"{"contrast": true}"#) }
    #expect(boolean?.description.contains("true (a boolean)") == true)

    let range = caught(ControlStateError.self) { _ = try decode(#"{"saturation": 2.5}"#) }
    #expect(range == .outOfRange(key: "saturation", value: "2.5", allowed: "0 … 2"))

    let huge = caught(ControlStateError.self) {
      _ = try ControlState().applying(json: Data(#"{"tint": 1e999}"#.utf8))
    }
    #expect(huge != nil)

    #expect(throws: ControlStateError.self) { try decode("[1, 2]") }
    let malformed = caught(ControlStateError.self) {
      _ = try ControlState().applying(json: Data("{not json".utf8))
    }
    #expect(
      malformed?.description
        == "At line 1, column 2: The control state is not a valid JSON object: expected a key in "
        + "double quotes, found 'not'.")
  }

  @Test func stateFileErrorsGiveTheLineAndColumn() {
    func problem(_ json: String) -> ControlStateError? {
      caught(ControlStateError.self) {
        _ = try ControlState.layered(
          stateFiles: [(name: "look.json", data: Data(json.utf8))], assignments: [])
      }
    }
    // A missing comma: found where the next key starts.
    #expect(
      problem("{\n  \"exposureBias\": 0.5,\n  \"zoom\": 2\n  \"contrast\": 1.2\n}")?.description
        == "look.json:4:3: The control state is not a valid JSON object: expected ',' or '}' after "
        + "the value of \"zoom\", found '\"'.")
    // Columns count characters, not bytes.
    #expect(
      problem("{\"filter\": \"été\" \"zoom\": 2}")?.description.hasPrefix("look.json:1:18: ")
        == true)
    let cases: [(String, String)] = [
      ("", "look.json:1:1: The control state is not a valid JSON object: the file is empty"),
      (
        "{\"zoom\": 2", "look.json:1:11: The control state is not a valid JSON object: expected ','"
      ),
      ("{\"zoom\": tru}", "found 'tru'"),
      (
        "{\"zoom\": 01}",
        "look.json:1:10: The control state is not a valid JSON object: '01' is not"
      ),
      ("{\"filter\": \"mono\n\"}", "look.json:1:12: "),
      (
        "{\"zoom\": 2} x",
        "look.json:1:13: The control state is not a valid JSON object: unexpected"
      ),
      ("{\"zoom\": \"\\q\"}", "an unknown escape"),
      ("{\"zoom\": \"\\u+123\"}", "an unknown escape"),
      (String(repeating: "[", count: 300), "nested more than 256 deep"),
    ]
    for (json, expected) in cases {
      let text = problem(json)?.description ?? "no error"
      #expect(text.contains(expected), "\(json): \(text)")
    }
    // A bad key or value is pointed at by its key; keys are checked in the order they are written.
    let value = problem("{\n  \"zoom\": 2,\n  \"whiteBalance\": \"sunny\",\n  \"contrast\": 9\n}")
    #expect(value?.description.hasPrefix("look.json:3:3: The value \"sunny\"") == true)
    #expect(
      problem("{\"zoom\": 2, \"zom\": 2}")?.description.hasPrefix(
        "look.json:1:13: Unknown control key \"zom\"") == true)
    // A value inside an array is pointed at by its key too.
    let nested = problem("{\"zoomCenter\": [0.5, 7]}")
    if case .inSource("look.json", .at(line: 1, column: 2, .outOfRange))? = nested {
    } else {
      Issue.record("\(String(describing: nested))")
    }
  }

  @Test func stateFilesAreStrictJSON() {
    func problem(_ json: String) -> String? {
      caught(ControlStateError.self) { _ = try ControlState().applying(json: Data(json.utf8)) }?
        .description
    }
    // Foundation keeps one of two equal keys, so the out-of-range second value would go unchecked.
    let twice = problem("{\n  \"exposureBias\": 1,\n  \"exposureBias\": 99\n}")
    #expect(twice?.contains("\"exposureBias\" appears twice") == true, "\(twice ?? "no error")")
    #expect(twice?.contains("line 3, column 3") == true, "\(twice ?? "no error")")
    // The same key spelled with an escape is the same key; nested objects keep their own keys.
    #expect(problem(#"{"zoom": 2, "\u007aoom": 3}"#)?.contains("\"zoom\" appears twice") == true)
    #expect(problem(#"{"zoomCenter": {"x": 0.2, "y": 0.3}, "zoom": 2}"#) == nil)
    #expect(problem(#"{"zoomCenter": {"x": 0.2, "x": 0.3}}"#)?.contains("\"x\"") == true)
    // Trailing commas are not JSON, in objects or arrays; a comma inside a string is just text.
    #expect(
      problem(#"{"zoom": 2,}"#)?.hasPrefix("At line 1, column 12: ") == true
        && problem(#"{"zoom": 2,}"#)?.contains("a comma before '}'") == true)
    #expect(problem(#"{"zoomCenter": [0.2, 0.3,]}"#)?.contains("a comma before ']'") == true)
    #expect(problem(#"{"whiteBalance": "daylight,}"}"#)?.contains("comma") == false)
    #expect(
      (try? ControlState().applying(json: Data(#"{"zoom": 2, "contrast": 1.5}"#.utf8)))
        == ControlState(zoom: 2, contrast: 1.5))
  }

  @Test func stateAndTimelineFilesAreReadOnlyFromRegularFiles() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-files-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("fifo.json")
    #expect(mkfifo(fifo.path, 0o644) == 0)
    func stateError(_ path: String) -> String {
      let error = caught(ControlStateError.self) {
        _ = try ControlState.layered(
          stateFileURLs: [URL(fileURLWithPath: path)], assignments: [])
      }
      return error?.description ?? "no error"
    }
    // Neither a FIFO nor /dev/zero is read: they would hang or grow without end.
    #expect(
      stateError(fifo.path) == "In \(fifo.path): The file cannot be read: not a regular file.")
    #expect(stateError("/dev/zero").hasSuffix("not a regular file."))
    #expect(stateError(folder.path).hasSuffix("a folder, not a file."))
    #expect(stateError(folder.appendingPathComponent("none.json").path).hasSuffix("no such file."))
    let timeline = caught(TimelineError.self) { _ = try Timeline(contentsOf: fifo) }
    #expect(timeline == .fileError(path: fifo.path, reason: "not a regular file"))
    // A regular file still reads.
    let good = folder.appendingPathComponent("good.json")
    try Data(#"{"contrast": 1.5}"#.utf8).write(to: good)
    #expect(
      try ControlState.layered(stateFileURLs: [good], assignments: [])
        == ControlState(contrast: 1.5))
  }

  @Test func encodingRoundTrips() throws {
    let states = [
      ControlState.identity,
      ControlState(
        exposureBias: 1.5, zoom: 2.5, zoomCenter: ZoomCenter(x: 0.1, y: 0.2), contrast: 1.1,
        saturation: 0.9,
        whiteBalance: .kelvin(4321.25), tint: -7.5, filter: .noir),
      ControlState(whiteBalance: .preset(.fluorescent), filter: .vivid),
      ControlState(whiteBalance: .auto),
    ]
    for state in states {
      let data = try state.jsonData()
      #expect(try JSONDecoder().decode(ControlState.self, from: data) == state)
      #expect(try ControlState.identity.applying(json: data) == state)
    }
    let text = String(
      decoding: try ControlState(whiteBalance: .preset(.shade)).jsonData(), as: UTF8.self)
    #expect(text.contains(#""whiteBalance":"shade""#))
    #expect(text.contains(#""zoomCenter":[0.5,0.5]"#))
  }

  @Test func layersFilesInOrderThenAssignments() throws {
    let first = Data(#"{"exposureBias": 1, "contrast": 1.5, "filter": "mono"}"#.utf8)
    let second = Data(#"{"exposureBias": -1, "tint": 10}"#.utf8)
    let state = try ControlState.layered(
      stateFiles: [("a.json", first), ("b.json", second)], assignments: ["contrast=0.5", "ev=2"])
    #expect(state == ControlState(exposureBias: 2, contrast: 0.5, tint: 10, filter: .mono))
  }

  @Test func layeringErrorsNameTheSource() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("look.json")
    try Data(#"{"zoom": 40}"#.utf8).write(to: file)
    let error = caught(ControlStateError.self) {
      _ = try ControlState.layered(stateFileURLs: [file], assignments: [])
    }
    let text = error?.description ?? ""
    #expect(text.contains("look.json") && text.contains("40") && text.contains("1 … 16"))
    let setError = caught(ControlStateError.self) {
      _ = try ControlState.layered(stateFiles: [], assignments: ["tint=500"])
    }
    #expect(setError?.description.contains("--set tint=500") == true)
  }
}
