import Foundation
import Testing

@testable import Controls

@Suite struct TimelineKeyframeTests {
  /// The value of frame `frame` at 30 fps, evaluated frame after frame as `frames` and `video` do.
  private func perFrame(_ timeline: Timeline, frames: Int, fps: Double = 30) throws
    -> [ControlState]
  {
    var playhead = TimelinePlayhead(timeline)
    return try (0..<frames).map { try playhead.state(at: Timeline.frameTime($0, fps: fps)) }
  }

  @Test func aThreeSecondExposureRampIsTwoEvents() throws {
    let timeline = try Timeline(
      jsonLines: """
        {"time":0,"type":"slide","control":"exposure-bias","value":0}
        {"time":0,"type":"slide","control":"exposure-bias","value":1,"duration":3}
        """)
    let states = try perFrame(timeline, frames: 120)
    for (frame, state) in states.enumerated() {
      // Linear: frame k at k / 30 s is k / 90 of the way, then stays at 1.
      let expected = min(Double(frame) / 90, 1)
      #expect(abs(state.exposureBias - expected) < 1e-12, "frame \(frame): \(state.exposureBias)")
    }
    #expect(states[90].exposureBias == 1 && states[119].exposureBias == 1)
    // Every frame of the ramp moves.
    for frame in 1...90 { #expect(states[frame].exposureBias > states[frame - 1].exposureBias) }
    #expect(timeline.duration == 3)
  }

  @Test func easeInOutIsSmoothstep() throws {
    let timeline = try Timeline(
      jsonLines: """
        {"time":1,"type":"slide","control":"contrast","value":1.5,"duration":2,"curve":"ease-in-out"}
        """)
    let states = try perFrame(timeline, frames: 100)
    for (frame, state) in states.enumerated() {
      let p = min(max((Double(frame) / 30 - 1) / 2, 0), 1)
      let expected = 1 + 0.5 * (3 * p * p - 2 * p * p * p)
      #expect(abs(state.contrast - expected) < 1e-12, "frame \(frame): \(state.contrast)")
    }
    // Halfway (frame 60, t = 2) is half the move; the steps are small at the ends, large in the middle.
    #expect(abs(states[60].contrast - 1.25) < 1e-12)
    #expect(states[31].contrast - states[30].contrast < states[61].contrast - states[60].contrast)
    #expect(TimelineCurve.easeInOut.fraction(0.25) == 0.15625)
    #expect(TimelineCurve.linear.fraction(2) == 1 && TimelineCurve.easeInOut.fraction(-1) == 0)
  }

  @Test func aPanMovesTheZoomCentreEveryFrame() throws {
    let timeline = try Timeline(
      jsonLines: """
        {"time":0,"type":"slide","control":"zoom","value":2}
        {"time":0.5,"type":"slide","control":"zoom-center","value":[0.2,0.8],"duration":2}
        """)
    let states = try perFrame(timeline, frames: 90)
    for (frame, state) in states.enumerated() {
      let p = min(max((Double(frame) / 30 - 0.5) / 2, 0), 1)
      #expect(abs(state.zoomCenter.x - (0.5 - 0.3 * p)) < 1e-12)
      #expect(abs(state.zoomCenter.y - (0.5 + 0.3 * p)) < 1e-12)
      #expect(state.zoom == 2)
    }
    for frame in 16...75 { #expect(states[frame].zoomCenter.x < states[frame - 1].zoomCenter.x) }
    #expect(states[75].zoomCenter == ZoomCenter(x: 0.2, y: 0.8))
  }

  @Test func aMoveOverlappingTheNextStartsTheNextFromWhereItIs() throws {
    let timeline = try Timeline(
      jsonLines: """
        {"time":0,"type":"slide","control":"zoom","value":3,"duration":2}
        {"time":1,"type":"slide","control":"zoom","value":1,"duration":1}
        {"time":0,"type":"slide","control":"tint","value":20,"duration":4}
        """)
    // The first move reaches 2 at t = 1; the second goes from there to 1 by t = 2 and replaces it.
    #expect(try timeline.state(at: 0.5).zoom == 1.5)
    #expect(try timeline.state(at: 1).zoom == 2)
    #expect(try timeline.state(at: 1.5).zoom == 1.5)
    #expect(try timeline.state(at: 2).zoom == 1)
    #expect(try timeline.state(at: 3).zoom == 1)
    // A move of another control runs on regardless.
    #expect(try timeline.state(at: 1.5).tint == 7.5)
    // An instant slide ends a move under way.
    let cut = try Timeline(
      jsonLines: """
        {"time":0,"type":"slide","control":"saturation","value":2,"duration":2}
        {"time":1,"type":"slide","control":"saturation","value":0.25}
        """)
    #expect(try cut.state(at: 0.5).saturation == 1.25)
    #expect(try cut.state(at: 1.5).saturation == 0.25)
    #expect(try cut.state(at: 3).saturation == 0.25)
  }

  @Test func evaluatingFrameByFrameMatchesEvaluatingEachTimeAlone() throws {
    let timeline = try Timeline(
      jsonLines: """
        {"time":0,"type":"select","control":"white-balance","option":"tungsten"}
        {"time":0.2,"type":"slide","control":"white-balance","value":6500,"duration":1.3,"curve":"ease-in-out"}
        {"time":0.7,"type":"slide","control":"exposure-bias","value":-1,"duration":0.4}
        {"time":1,"type":"select","control":"filter","option":"mono"}
        """)
    let states = try perFrame(timeline, frames: 60)
    for (frame, state) in states.enumerated() {
      #expect(try timeline.state(at: Timeline.frameTime(frame, fps: 30)) == state)
    }
    // The temperature starts from the preset's 2850 K.
    guard case .kelvin(let kelvin) = states[12].whiteBalance else {
      Issue.record("expected kelvin, got \(states[12].whiteBalance)")
      return
    }
    let p = (12.0 / 30 - 0.2) / 1.3
    #expect(abs(kelvin - (2850 + 3650 * (3 * p * p - 2 * p * p * p))) < 1e-9)
  }

  @Test func eventsOnAFrameApplyToThatFrameEvenRoundedToTheMillisecond() throws {
    // Frame 2 at 30 fps is at 0.0667 s; 0.067 is that time rounded, and used to land on frame 3.
    let rounded = try Timeline(
      jsonLines: #"{"time":0.067,"type":"slide","control":"exposure-bias","value":1}"#)
    let states = try perFrame(rounded, frames: 4)
    #expect(states.map(\.exposureBias) == [0, 0, 1, 1])
    // At 29.97 fps frame 100 is at 3.33667 s.
    let ntsc = try Timeline(jsonLines: #"{"time":3.337,"type":"slide","control":"zoom","value":2}"#)
    let fps = 30000.0 / 1001
    #expect(try ntsc.state(at: Timeline.frameTime(99, fps: fps)).zoom == 1)
    #expect(try ntsc.state(at: Timeline.frameTime(100, fps: fps)).zoom == 2)
    // A whole millisecond late is the next frame.
    let late = try Timeline(
      jsonLines: #"{"time":0.0677,"type":"slide","control":"exposure-bias","value":1}"#)
    #expect(try perFrame(late, frames: 4).map(\.exposureBias) == [0, 0, 0, 1])
  }

  @Test func keyframesRoundTripThroughJSONLines() throws {
    let text = """
      {"time":0,"type":"slide","control":"zoom-center","value":[0.25,0.75],"duration":1.5,"curve":"ease-in-out"}
      {"time":1,"type":"slide","control":"zoom","value":2,"duration":0.5,"curve":"linear"}
      {"time":2,"type":"slide","control":"tint","value":-3}

      """
    let timeline = try Timeline(jsonLines: text)
    #expect(
      timeline.events[0]
        == TimelineEvent(
          time: 0, action: .slideCenter(ZoomCenter(x: 0.25, y: 0.75)),
          transition: TimelineTransition(duration: 1.5, curve: .easeInOut)))
    // A duration without a curve is linear.
    let plain = try Timeline(
      jsonLines: #"{"time":0,"type":"slide","control":"zoom","value":2,"duration":1}"#)
    #expect(plain.events[0].transition == TimelineTransition(duration: 1, curve: .linear))
    let lines = timeline.jsonLines().split(separator: "\n").map(String.init)
    #expect(
      lines[0]
        == #"{"time":0,"type":"slide","control":"zoom-center","value":[0.25,0.75],"#
        + #""duration":1.5,"curve":"ease-in-out"}"#)
    #expect(try Timeline(jsonLines: timeline.jsonLines()) == timeline)
  }

  @Test(arguments: [
    (#"{"time":0,"type":"slide","control":"zoom","value":2,"duration":-1}"#, "\"duration\""),
    (#"{"time":0,"type":"slide","control":"zoom","value":2,"duration":"NaN"}"#, "\"duration\""),
    (
      #"{"time":0,"type":"slide","control":"zoom","value":2,"duration":1,"curve":"bounce"}"#,
      "bounce"
    ),
    (
      #"{"time":0,"type":"slide","control":"zoom","value":2,"curve":"linear"}"#,
      "needs a \"duration\""
    ),
    (#"{"time":0,"type":"select","control":"filter","option":"mono","duration":1}"#, "duration"),
    (#"{"time":0,"type":"slide","control":"zoom-center","value":0.5}"#, "[x, y]"),
    (#"{"time":0,"type":"slide","control":"zoom-center","value":[0.5,1.5]}"#, "0 … 1"),
  ])
  func badKeyframesNameTheLine(_ line: String, _ fragment: String) {
    let text = #"{"time":0,"type":"slide","control":"zoom","value":2}"# + "\n" + line
    let error = caught(TimelineError.self) { _ = try Timeline(jsonLines: text) }
    guard case .malformedLine(let number, let problem)? = error else {
      Issue.record("expected malformedLine, got \(String(describing: error))")
      return
    }
    #expect(number == 2)
    #expect(problem.contains(fragment), "\(problem)")
  }

  @Test func badDurationsFromTheAPIAreErrors() {
    for duration in [-0.5, .nan, .infinity] {
      let event = TimelineEvent(
        time: 0, action: .slide(.zoom, value: 2),
        transition: TimelineTransition(duration: duration))
      let error = caught(TimelineError.self) { _ = try Timeline(events: [event]) }
      #expect(error?.description.contains("duration") == true, "\(duration)")
    }
    let select = TimelineEvent(
      time: 0, action: .select(.filter, option: "mono"),
      transition: TimelineTransition(duration: 1))
    #expect(
      caught(TimelineError.self) { _ = try Timeline(events: [select]) }
        == .transitionNotAllowed(action: "select"))
  }

  @Test func aWhiteBalanceMoveNeedsATemperatureToStartFrom() throws {
    let timeline = try Timeline(
      jsonLines: """
        {"time":0.5,"type":"slide","control":"white-balance","value":4000,"duration":1}
        """)
    let error = caught(TimelineError.self) { _ = try timeline.state(at: 1) }
    guard case .inapplicable(let time, let problem)? = error else {
      Issue.record("expected inapplicable, got \(String(describing: error))")
      return
    }
    #expect(time == 0.5)
    #expect(problem.contains("temperature"), "\(problem)")
  }

  @Test func aReplayMovesKeyframedControlsStepByStepToTheFoldedResult() async throws {
    let timeline = try Timeline(
      jsonLines: """
        {"time":0,"type":"slide","control":"zoom","value":2,"duration":0.5}
        {"time":0.6,"type":"slide","control":"zoom-center","value":[0.3,0.6],"duration":0.1}
        {"time":0.8,"type":"select","control":"filter","option":"noir"}
        """)
    /// Records every state the target is moved to.
    final class Recording: TimelineTarget, @unchecked Sendable {
      let live = LiveControlState()
      var zooms: [Double] = []
      func perform(_ action: TimelineAction) throws {
        try live.perform(action)
        if case .slide(.zoom, _) = action { zooms.append(live.snapshot().state.zoom) }
      }
    }
    let target = Recording()
    let controls = try StandardControls(device: device("iphone-16-pro"))
    try await timeline.play(on: VirtualClock(), into: target, moveStep: 0.1)
    try await timeline.play(on: VirtualClock(), into: controls)
    // The zoom went 1 → 2 at 0, 0.1, …, 0.5 s: 1, 1.2, 1.4, 1.6, 1.8, 2.
    #expect(target.zooms.count == 6)
    for (step, zoom) in target.zooms.enumerated() {
      #expect(abs(zoom - (1 + 0.2 * Double(step))) < 1e-12, "step \(step): \(zoom)")
    }
    let folded = try timeline.state(at: timeline.duration)
    #expect(folded == ControlState(zoom: 2, zoomCenter: ZoomCenter(x: 0.3, y: 0.6), filter: .noir))
    #expect(target.live.snapshot().state == folded)
    #expect(controls.state == folded)
  }

  @Test func aMoveEndsExactlyOnItsEndTimeWhateverTheRounding() async throws {
    // (0.7 + 0.1 − 0.7) / 0.1 is 0.9999999999999998 in doubles: the move still ends on 0.8.
    let timeline = try Timeline(
      jsonLines: #"{"time":0.7,"type":"slide","control":"tint","value":10,"duration":0.1}"#)
    #expect(try timeline.state(at: 0.7 + 0.1).tint == 10)
    let live = LiveControlState()
    try await timeline.play(on: VirtualClock(), into: live, moveStep: 0.03)
    #expect(live.snapshot().state.tint == 10)
  }

  @Test func theManualsTimelineExampleGivesTheDocumentedValues() throws {
    let page = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/cli/frames.md"),
      encoding: .utf8)
    guard let section = page.range(of: "## Timelines"),
      let start = page.range(of: "```json\n", range: section.upperBound..<page.endIndex),
      let end = page.range(of: "```", range: start.upperBound..<page.endIndex)
    else {
      Issue.record("docs/cli/frames.md has no timeline example")
      return
    }
    let timeline = try Timeline(jsonLines: String(page[start.upperBound..<end.lowerBound]))
    // Exposure 0 → 1 over 3 s; zoom 1 → 2 eased from 1 s to 2.5 s; a pan from 3 s to 5 s.
    #expect(try timeline.state(at: 1.5).exposureBias == 0.5)
    #expect(try timeline.state(at: 1.75).zoom == 1.5)
    let last = try timeline.state(at: 5)
    #expect(last.exposureBias == 1 && last.zoom == 2)
    #expect(last.zoomCenter == ZoomCenter(x: 0.25, y: 0.4))
    let halfway = try timeline.state(at: 4).zoomCenter
    #expect(abs(halfway.x - 0.375) < 1e-12 && abs(halfway.y - 0.45) < 1e-12)
  }

  @Test func replayingAPanIntoTheStandardControlsMovesTheirCentre() throws {
    let controls = try StandardControls(device: device("iphone-16-pro"))
    try controls.perform(.slideCenter(ZoomCenter(x: 0.1, y: 0.9)))
    #expect(controls.state.zoomCenter == ZoomCenter(x: 0.1, y: 0.9))
    #expect(controls.control(for: .zoomCenter) == nil)
    // A number cannot be a centre.
    let error = caught(TimelineError.self) {
      _ = try ControlState.identity.applying(.slide(.zoomCenter, value: 0.5))
    }
    #expect(error == .unsupportedAction(control: "zoom-center", action: "number slide"))
  }
}
