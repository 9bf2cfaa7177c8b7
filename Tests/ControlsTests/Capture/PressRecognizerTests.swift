import Testing

@testable import Controls

@Suite struct PressRecognizerTests {
  private let down = CaptureEvent(phase: .began, kind: .primary)
  private let up = CaptureEvent(phase: .ended, kind: .primary)

  private func single(_ time: Double, _ kind: CaptureEvent.Kind = .primary)
    -> PressRecognizer.Recognized
  {
    .init(kind: kind, gesture: .single, time: time)
  }

  // Times are multiples of 1/8 s, so the arithmetic is exact.
  private func recognizer() throws -> PressRecognizer {
    try PressRecognizer(doublePressInterval: 0.25, longPressDuration: 0.5)
  }

  @Test func defaultsAreAssistiveTouchLike() throws {
    let presses = try PressRecognizer()
    #expect(presses.doublePressInterval == 0.3 && presses.longPressDuration == 0.5)
  }

  @Test func aSinglePressIsKnownOnceNoSecondCanFollow() throws {
    let presses = try recognizer()
    #expect(presses.receive(down, at: 0).isEmpty)
    #expect(presses.receive(up, at: 0.125).isEmpty)
    #expect(presses.advance(to: 0.375).isEmpty)  // a second press could still start at 0.375
    #expect(presses.advance(to: 0.5) == [single(0.375)])
    #expect(presses.advance(to: 5).isEmpty)
  }

  @Test func twoQuickPressesAreOneDoublePress() throws {
    let presses = try recognizer()
    _ = presses.receive(down, at: 0)
    _ = presses.receive(up, at: 0.125)
    #expect(presses.receive(down, at: 0.375).isEmpty)
    #expect(presses.receive(up, at: 0.5) == [.init(kind: .primary, gesture: .double, time: 0.5)])
    #expect(presses.advance(to: 5).isEmpty)
  }

  @Test func aSlowSecondPressMakesTwoSinglePresses() throws {
    let presses = try recognizer()
    _ = presses.receive(down, at: 0)
    _ = presses.receive(up, at: 0.125)
    #expect(presses.receive(down, at: 0.5) == [single(0.375)])
    #expect(presses.receive(up, at: 0.625).isEmpty)
    #expect(presses.advance(to: 1) == [single(0.875)])
  }

  @Test func aHeldPressIsLongOnceHeldLongEnough() throws {
    let presses = try recognizer()
    _ = presses.receive(down, at: 0)
    #expect(presses.advance(to: 0.375).isEmpty)
    #expect(presses.advance(to: 0.6) == [.init(kind: .primary, gesture: .long, time: 0.5)])
    #expect(presses.receive(up, at: 2).isEmpty)
    #expect(presses.advance(to: 5).isEmpty)
    // Without a tick in between, the release tells, timed when it was held long enough.
    _ = presses.receive(down, at: 10)
    #expect(presses.receive(up, at: 10.75) == [.init(kind: .primary, gesture: .long, time: 10.5)])
  }

  @Test func theIntervalAndDurationAreAdjustable() throws {
    let patient = try PressRecognizer(doublePressInterval: 0.75, longPressDuration: 1.5)
    _ = patient.receive(down, at: 0)
    _ = patient.receive(up, at: 0.125)
    // A gap of 0.5 s: a double press here, two single presses with the default interval.
    _ = patient.receive(down, at: 0.625)
    #expect(patient.receive(up, at: 1.5) == [.init(kind: .primary, gesture: .double, time: 1.5)])
    #expect(throws: ControlError.self) { try PressRecognizer(doublePressInterval: 0) }
    #expect(throws: ControlError.self) { try PressRecognizer(longPressDuration: .infinity) }
  }

  @Test func kindsAreRecognisedApartAndCancelledPressesCountForNothing() throws {
    let presses = try recognizer()
    _ = presses.receive(down, at: 0)
    _ = presses.receive(CaptureEvent(phase: .began, kind: .secondary), at: 0.0625)
    _ = presses.receive(up, at: 0.125)
    _ = presses.receive(CaptureEvent(phase: .ended, kind: .secondary), at: 0.1875)
    #expect(presses.advance(to: 1) == [single(0.375), single(0.4375, .secondary)])
    _ = presses.receive(down, at: 2)
    _ = presses.receive(CaptureEvent(phase: .cancelled, kind: .primary), at: 2.1)
    #expect(presses.advance(to: 5).isEmpty)
  }
}
