import Controls
import Foundation
import Studio
import Testing

@testable import FrameDialCLI
@testable import FrameDialFullCLI

/// The studio's gesture recording: it holds at most its limit of events and stops by itself there, so
/// a page left recording (or a script sending presses without end) cannot grow it without bound.
@Suite struct StudioRecordingTests {
  @Test func aRecordingStopsByItselfAtItsLimit() throws {
    let recording = StudioRecording(eventLimit: 50)
    recording.start(from: .identity)
    let press = TimelineAction.press(CaptureEvent(phase: .began, kind: .secondary))
    for _ in 0..<40 { recording.record([press]) }
    #expect(recording.status == RecordingStatus(recording: true, events: 40))
    for _ in 0..<30 { recording.record([press, press]) }
    #expect(recording.status == RecordingStatus(recording: false, events: 50))
    // What it holds is a whole timeline of those events.
    let lines = String(decoding: recording.jsonLines(), as: UTF8.self)
    #expect(lines.split(separator: "\n").count == 50)
    // A new recording starts from nothing again.
    recording.start(from: .identity)
    recording.record([press])
    #expect(recording.status == RecordingStatus(recording: true, events: 1))
  }
}
