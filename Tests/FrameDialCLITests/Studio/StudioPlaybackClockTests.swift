import Testing

@testable import FrameDialCLI
@testable import FrameDialFullCLI

/// When a playing video's frames are due in `framedial studio`, which are passed over, and how the
/// clock restarts when decoding cannot keep up and at the end of a pass — on made-up times, no clock.
@Suite struct StudioPlaybackClockTests {
  @Test func framesOnTimeAreDueAtTheirTimestamps() {
    var clock = StudioPlaybackClock(interval: 0.04, start: 10)
    // Decoded ahead of time: shown, due at the pass's start plus the frame's time.
    let first = clock.frame(at: 0, now: 9.99)
    #expect(first.choice == .show && first.due == 10)
    let second = clock.frame(at: 0.04, now: 10.01)
    #expect(second.choice == .show && second.due == 10.04)
    // Late by less than an interval: still shown, at once (its due time has passed).
    let late = clock.frame(at: 0.08, now: 10.11)
    #expect(late.choice == .show && late.due == 10.08)
  }

  @Test func aFrameLateByAnIntervalIsPassedOverAndTheNextOnTimeIsShown() {
    var clock = StudioPlaybackClock(interval: 0.04, start: 0)
    #expect(clock.frame(at: 0.04, now: 0.09).choice == .skip)
    #expect(clock.frame(at: 0.08, now: 0.10).choice == .show)
    #expect(clock.passStart == 0)
  }

  @Test func decodingThatCannotKeepUpShowsTheFrameAndRestartsTheClock() {
    var clock = StudioPlaybackClock(interval: 1.0 / 60, start: 0)
    // 0.3 s late (more than the 0.25 s allowed): shown now, the pass's start moved so it is on time.
    let stalled = clock.frame(at: 0.5, now: 0.8)
    #expect(stalled.choice == .show && stalled.due == 0.8)
    #expect(abs(clock.passStart - 0.3) < 1e-9)
    // The frames after it are due from the new start.
    let next = clock.frame(at: 0.55, now: 0.81)
    #expect(next.choice == .show && abs(next.due - 0.85) < 1e-9)
  }

  @Test func theNextPassStartsAnIntervalAfterTheLastFrameOrNowAfterAStall() {
    var clock = StudioPlaybackClock(interval: 0.04, start: 5)
    clock.loop(lastTime: 1.96, now: 7)
    #expect(abs(clock.passStart - 7) < 1e-9)
    #expect(clock.frame(at: 0, now: 6.99).due == clock.passStart)
    clock.loop(lastTime: 1.96, now: 20)
    #expect(clock.passStart == 20)
  }

  @Test func anUnknownRateCountsAs25FramesASecond() {
    #expect(StudioPlaybackClock(interval: 0, start: 0).interval == 0.04)
    #expect(StudioPlaybackClock(interval: .nan, start: 0).interval == 0.04)
  }
}
