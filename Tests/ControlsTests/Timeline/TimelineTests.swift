import Dispatch
import Foundation
import Testing

@testable import Controls

@Suite struct TimelineTests {
  private let sample = """
    {"time":0.5,"type":"slide","control":"zoom","value":2}
    {"time":0,"type":"slide","control":"exposure-bias","value":0.5}

    {"time":1,"type":"select","control":"filter","option":"mono"}
    {"time":1,"type":"select","control":"white-balance","option":"4500K"}
    {"time":1.5,"type":"press","phase":"ended","kind":"primary"}
    {"time":2,"type":"select","control":"grid","option":"on"}
    """

  @Test func readsSortsAndFoldsIntoState() throws {
    let timeline = try Timeline(jsonLines: sample)
    #expect(timeline.events.count == 6 && timeline.duration == 2)
    #expect(timeline.events.first?.action == .slide(.exposureBias, value: 0.5))
    #expect(timeline.events(through: 0.99).count == 2)
    #expect(try timeline.state(at: 0.4) == ControlState(exposureBias: 0.5))
    #expect(
      try timeline.state(at: 1)
        == ControlState(exposureBias: 0.5, zoom: 2, whiteBalance: .kelvin(4500), filter: .mono))
    #expect(Timeline.frameTime(30, fps: 30) == 1)
  }

  @Test func cursorHandsOutEachEventOnceFrameByFrame() throws {
    var cursor = TimelineCursor(try Timeline(jsonLines: sample))
    var perFrame: [Int] = []
    for frame in 0..<5 {
      perFrame.append(cursor.advance(through: Timeline.frameTime(frame, fps: 2)).count)
    }
    #expect(perFrame == [1, 1, 2, 1, 1])
    #expect(cursor.advance(through: 10).isEmpty)
  }

  @Test func crlfLineEndingsReadLikeLF() throws {
    let lf = try Timeline(jsonLines: sample)
    let crlf = try Timeline(jsonLines: sample.replacingOccurrences(of: "\n", with: "\r\n"))
    #expect(crlf == lf)
    #expect(crlf.events.count == sample.split(separator: "\n").count)
  }

  @Test func recordingsGroupedPlayTogetherEachFromItsOwnStart() throws {
    // Two movements recorded one after the other, each timed from its own recording's start.
    let first = try Timeline(events: [
      TimelineEvent(time: 0, action: .slide(.zoom, value: 2)),
      TimelineEvent(time: 1, action: .slide(.zoom, value: 3)),
    ])
    let second = try Timeline(events: [
      TimelineEvent(time: 0, action: .slide(.contrast, value: 1.5)),
      TimelineEvent(time: 0.5, action: .slide(.tint, value: 10)),
    ])
    let grouped = try Timeline(grouping: [first, second])
    #expect(grouped.events.map(\.time) == [0, 0, 0.5, 1])
    #expect(
      grouped.events.map(\.action) == [
        .slide(.zoom, value: 2), .slide(.contrast, value: 1.5), .slide(.tint, value: 10),
        .slide(.zoom, value: 3),
      ])
    #expect(try grouped.state(at: 0.5) == ControlState(zoom: 2, contrast: 1.5, tint: 10))
  }

  @Test func jsonLinesRoundTrip() throws {
    let timeline = try Timeline(jsonLines: sample)
    let text = timeline.jsonLines()
    #expect(try Timeline(jsonLines: text) == timeline)
    #expect(
      text.split(separator: "\n").first
        == #"{"time":0,"type":"slide","control":"exposure-bias","value":0.5}"#)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("gesture.jsonl")
    try timeline.write(to: file)
    #expect(try Timeline(contentsOf: file) == timeline)
  }

  @Test(arguments: [
    (
      #"{"time":0,"type":"slide","control":"zoom","value":2}"# + "\nnot json", 2, "not a valid JSON"
    ),
    (#"{"type":"slide","control":"zoom","value":2}"#, 1, "\"time\""),
    (#"{"time":0,"type":"slide","control":"brightness","value":2}"#, 1, "brightness"),
    (#"{"time":0,"type":"slide","control":"zoom","value":40}"#, 1, "1 … 16"),
    (#"{"time":0,"type":"slide","control":"filter","value":1}"#, 1, "does not accept a slide"),
    (#"{"time":0,"type":"press","phase":"held","kind":"primary"}"#, 1, "held"),
    (#"{"time":0,"type":"select","control":"grid","option":"maybe"}"#, 1, "maybe"),
    (#"{"time":0,"type":"slide","control":"zoom","value":2,"extra":1}"#, 1, "extra"),
    ("\n\n" + #"{"time":-1,"type":"press","phase":"ended","kind":"primary"}"#, 3, "\"time\""),
    (
      #"{"time":0,"type":"press","phase":"ended","kind":"primary"}"# + "\r\n"
        + #"{"time":1,"type":"slide","control":"zoom","value":2,"value":40}"#, 2, "appears twice"
    ),
    (#"{"time":0,"type":"slide","control":"zoom","value":2,}"#, 1, "a comma before '}'"),
  ])
  func malformedLinesNameLineAndProblem(_ text: String, _ line: Int, _ fragment: String) {
    let error = caught(TimelineError.self) { _ = try Timeline(jsonLines: text) }
    guard case .malformedLine(let number, let problem)? = error else {
      Issue.record("expected malformedLine, got \(String(describing: error))")
      return
    }
    #expect(number == line)
    #expect(problem.contains(fragment), "\(problem)")
    #expect(error?.description.contains("line \(line)") == true)
  }

  @Test func replayOnAVirtualClockRunsInOrderAtEventTimes() async throws {
    let timeline = try Timeline(jsonLines: sample)
    let clock = VirtualClock()
    let live = LiveControlState()
    let seen = Collected<Double>()
    let started = ContinuousClock.now
    try await timeline.play(on: clock, into: live) { event, now in
      seen.append(now)
      #expect(now == event.time)
    }
    #expect(ContinuousClock.now - started < .seconds(1))
    #expect(seen.all == [0, 0.5, 1, 1, 1.5, 2])
    #expect(
      live.snapshot().state
        == ControlState(
          exposureBias: 0.5, zoom: 2, whiteBalance: .kelvin(4500), filter: .mono, grid: true))
  }

  @Test func replayOnRealTimeKeepsThePace() async throws {
    let timeline = try Timeline(events: [
      TimelineEvent(time: 0.05, action: .slide(.tint, value: 10)),
      TimelineEvent(time: 0, action: .slide(.tint, value: 5)),
    ])
    let live = LiveControlState()
    let clock = RealTimeClock()
    try await timeline.play(on: clock, into: live)
    #expect(clock.now() >= 0.05)
    #expect(live.snapshot().state.tint == 10)
  }

  @Test func aHandWrittenTimelineGivesOneResultReplayedOrFolded() async throws {
    // Values a user's slide would land elsewhere (0.1 EV snaps to 0, contrast 1.01 to 1, 4480 K stays):
    // a replay applies what is written, as `state(at:)` and `framedial frames --timeline` do.
    let timeline = try Timeline(
      jsonLines: """
        {"time":0,"type":"slide","control":"exposure-bias","value":0.1}
        {"time":0,"type":"slide","control":"contrast","value":1.01}
        {"time":0.5,"type":"slide","control":"temperature","value":4480}
        {"time":1,"type":"slide","control":"exposure-bias","value":5}
        {"time":1,"type":"select","control":"filter","option":"Noir"}
        """)
    let controls = try StandardControls(device: device("iphone-16-pro"))
    try await timeline.play(on: VirtualClock(), into: controls)
    let folded = try timeline.state(at: timeline.duration)
    #expect(controls.state == folded)
    #expect(
      folded
        == ControlState(exposureBias: 5, contrast: 1.01, whiteBalance: .kelvin(4480), filter: .noir)
    )
    #expect(controls.live.snapshot().state == folded)
    // On a device whose slider stops short of a written value, the replay says so.
    let webcam = try StandardControls(device: device("webcam"))
    await #expect(throws: ControlError.self) {
      try await timeline.play(on: VirtualClock(), into: webcam)
    }
  }

  @Test func recordsStandardControlEventsAndReplaysThemToTheSameState() async throws {
    let clock = VirtualClock()
    let recorder = TimelineRecorder(clock: clock)
    let presses = Collected<CaptureEvent>()
    let interaction = CaptureEventInteraction { presses.append($0) }
    interaction.attach()
    let standard = try StandardControls(device: device("iphone-16-pro"))
    standard.setRecorder(recorder)
    standard.setCaptureEventInteraction(interaction)
    try standard.perform(.slide(.zoom, value: 5.1))
    clock.advance(to: 0.25)
    try standard.perform(.select(.whiteBalance, option: "Daylight"))
    clock.advance(to: 0.5)
    try standard.perform(.press(CaptureEvent(phase: .ended, kind: .primary)))
    try standard.perform(.slide(.exposureBias, value: 0.7))
    let recorded = try recorder.timeline()
    #expect(recorded.events.map(\.time) == [0, 0.25, 0.5, 0.5])
    #expect(recorded.events[0].action == .slide(.zoom, value: 5))
    #expect(recorded.events[1].action == .select(.whiteBalance, option: "daylight"))
    #expect(presses.all == [CaptureEvent(phase: .ended, kind: .primary)])

    let replayed = try Timeline(jsonLines: recorded.jsonLines())
    #expect(replayed == recorded)
    #expect(try replayed.state(at: 1) == standard.state)

    let other = try StandardControls(device: device("iphone-16-pro"))
    try await replayed.play(on: VirtualClock(), into: other)
    #expect(other.state == standard.state)
  }
}
