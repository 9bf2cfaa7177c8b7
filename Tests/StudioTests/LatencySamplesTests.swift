import Foundation
import JSON
import Testing

@testable import Studio

/// The page's latency reports: nearest-rank percentiles over the newest samples, nonsense dropped.
@Suite struct LatencySamplesTests {
  @Test func percentilesAreNearestRank() {
    var samples = LatencySamples()
    #expect(samples.percentile(50) == nil)
    for value in 1...100 { samples.add(Double(value)) }
    #expect(samples.count == 100)
    #expect(samples.percentile(50) == 50)
    #expect(samples.percentile(99) == 99)
    #expect(samples.percentile(100) == 100)
    #expect(samples.percentile(0) == 1)
  }

  @Test func nonsenseIsDroppedAndOnlyTheNewestAreKept() {
    var samples = LatencySamples()
    let refused = [-1, .nan, .infinity, LatencySamples.largestMilliseconds + 1].map {
      samples.add($0)
    }
    #expect(refused == [false, false, false, false])
    #expect(samples.count == 0)
    for _ in 0..<LatencySamples.capacity { samples.add(500) }
    for _ in 0..<LatencySamples.capacity { samples.add(5) }
    #expect(samples.count == LatencySamples.capacity)
    #expect(samples.percentile(99) == 5)
  }
}

/// The `/live` messages a page sends.
@Suite struct LiveMessageTests {
  @Test func stateMessagesCarryTheStateObjectAndTheSequenceNumber() throws {
    let message = try LiveMessage(
      text: Data(#"{"type":"state","seq":7,"state":{"exposureBias":0.5}}"#.utf8))
    guard case .state(let members, let seq) = message else {
      Issue.record("not a state message: \(message)")
      return
    }
    #expect(seq == 7)
    #expect(members == .object(["exposureBias": .number(0.5)]))
  }

  @Test func shownMessagesCarryTheLatencyWhenMeasured() throws {
    #expect(
      try LiveMessage(text: Data(#"{"type":"shown","latencyMs":12.5}"#.utf8))
        == .shown(latencyMs: 12.5))
    #expect(try LiveMessage(text: Data(#"{"type":"shown"}"#.utf8)) == .shown(latencyMs: nil))
  }

  @Test func pressAndChooseMessagesCarryTheirFields() throws {
    #expect(
      try LiveMessage(text: Data(#"{"type":"press","phase":"began","kind":"secondary"}"#.utf8))
        == .press(phase: "began", kind: "secondary"))
    #expect(
      try LiveMessage(text: Data(#"{"type":"choose","control":"zoom"}"#.utf8))
        == .choose(control: "zoom"))
    do {
      _ = try LiveMessage(text: Data(#"{"type":"choose","control":3}"#.utf8))
      Issue.record("a number was taken as a control name")
    } catch {
      #expect(error.message.contains("a \"choose\" message needs a \"control\" name"))
    }
  }

  @Test func slideMessagesCarryTheControlTheValueAndTheSequence() throws {
    #expect(
      try LiveMessage(
        text: Data(#"{"type":"slide","seq":4,"control":"exposure-bias","value":0.25}"#.utf8))
        == .slide(control: "exposure-bias", value: 0.25, seq: 4))
    #expect(
      try LiveMessage(text: Data(#"{"type":"slide","control":"zoom","value":2}"#.utf8))
        == .slide(control: "zoom", value: 2, seq: nil))
    for bad in [
      #"{"type":"slide","control":"zoom"}"#, #"{"type":"slide","value":2}"#,
      #"{"type":"slide","control":"zoom","value":"2"}"#,
    ] {
      do {
        _ = try LiveMessage(text: Data(bad.utf8))
        Issue.record("taken: \(bad)")
      } catch {
        #expect(error.message.contains("a \"slide\" message needs a \"control\" name"))
      }
    }
  }

  @Test func viewMessagesCarryTheDisplayedSizeAndDecodedNeedsNothingElse() throws {
    #expect(
      try LiveMessage(text: Data(#"{"type":"view","width":482,"height":271}"#.utf8))
        == .view(width: 482, height: 271, rawFrames: false))
    #expect(
      try LiveMessage(
        text: Data(#"{"type":"view","width":16384,"height":1.0,"format":"rgba"}"#.utf8))
        == .view(width: 16384, height: 1, rawFrames: true))
    #expect(
      try LiveMessage(text: Data(#"{"type":"view","width":2,"height":1,"format":"jpeg"}"#.utf8))
        == .view(width: 2, height: 1, rawFrames: false))
    #expect(try LiveMessage(text: Data(#"{"type":"decoded"}"#.utf8)) == .decoded)
  }

  @Test(arguments: [
    #"{"type":"view","width":0,"height":271}"#, #"{"type":"view","width":482,"height":16385}"#,
    #"{"type":"view","width":482.5,"height":271}"#, #"{"type":"view","width":"482","height":271}"#,
    #"{"type":"view","width":482}"#, #"{"type":"view","width":-482,"height":271}"#,
  ])
  func viewMessagesOutsideWholePixelsAreRefusedWithTheRange(text: String) {
    do {
      _ = try LiveMessage(text: Data(text.utf8))
      Issue.record("\(text) was taken")
    } catch {
      #expect(
        error.message
          == "a \"view\" message needs a \"width\" and a \"height\": whole numbers of device "
          + "pixels from 1 to 16384")
    }
  }

  @Test(arguments: [
    #"{"type":"view","width":2,"height":1,"format":"png"}"#,
    #"{"type":"view","width":2,"height":1,"format":4}"#,
  ])
  func viewMessagesWithAnotherFormatAreRefusedNamingTheFormats(text: String) {
    #expect(
      throws: LiveMessage.Problem(message: #"a "view" message's "format" must be "rgba" or "jpeg""#)
    ) {
      try LiveMessage(text: Data(text.utf8))
    }
  }

  @Test(arguments: [
    "not json", "[1,2]", #"{"type":"dance"}"#, #"{"state":{}}"#, #"{"type":"state","state":3}"#,
    #"{"type":"press","phase":"began"}"#, #"{"type":"press","kind":"primary","phase":1}"#,
    #"{"type":"choose"}"#,
  ])
  func otherTextIsAProblemNamingWhatIsExpected(text: String) {
    #expect(throws: LiveMessage.Problem.self) { try LiveMessage(text: Data(text.utf8)) }
  }

  @Test func jsonTextEscapesEveryString() throws {
    let data = JSONText.object([
      "error": .string("bad \"key\"\n</script>\u{1}"), "n": .number(.nan),
      "raw": .raw(Data("[1]".utf8)),
    ])
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["error"] as? String == "bad \"key\"\n</script>\u{1}")
    #expect(object["n"] is NSNull)
    #expect(object["raw"] as? [Int] == [1])
    #expect(!String(decoding: data, as: UTF8.self).contains("</script>"))
  }
}

/// `GET /stats`: the page's latencies and the frames' render times, each with its own percentiles.
@Suite struct StatsJSONTests {
  @Test func latencyRenderAndFrameTimesAreReportedSeparately() throws {
    var latency = LatencySamples()
    for value in 1...100 { latency.add(Double(value)) }
    var render = LatencySamples()
    for value in [4.0, 2.5, 3.0, 9.0] { render.add(value) }
    var frame = LatencySamples()
    for value in [5.0, 7.5, 6.0] { frame.add(value) }
    let data = StudioServer.statsJSON(latency: latency, render: render, frame: frame)
    let stats = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(stats["p50Ms"] as? Double == 50)
    #expect(stats["p99Ms"] as? Double == 99)
    #expect(stats["samples"] as? Int == 100)
    // Nearest rank over 2.5, 3, 4, 9: rank 2 for p50, rank 4 for p99.
    #expect(stats["renderP50Ms"] as? Double == 3)
    #expect(stats["renderP99Ms"] as? Double == 9)
    #expect(stats["renderSamples"] as? Int == 4)
    // Nearest rank over 5, 6, 7.5: rank 2 for p50, rank 3 for p99.
    #expect(stats["frameP50Ms"] as? Double == 6)
    #expect(stats["frameP99Ms"] as? Double == 7.5)
    #expect(stats["frameSamples"] as? Int == 3)
  }

  @Test func percentilesAreNullBeforeTheFirstSample() throws {
    let data = StudioServer.statsJSON(
      latency: LatencySamples(), render: LatencySamples(), frame: LatencySamples())
    let stats = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    for key in ["p50Ms", "p99Ms", "renderP50Ms", "renderP99Ms", "frameP50Ms", "frameP99Ms"] {
      #expect(stats[key] is NSNull, "\(key)")
    }
    #expect(stats["samples"] as? Int == 0)
    #expect(stats["renderSamples"] as? Int == 0)
    #expect(stats["frameSamples"] as? Int == 0)
  }
}
