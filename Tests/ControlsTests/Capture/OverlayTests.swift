import Dispatch
import Foundation
import Testing

@testable import Controls

@Suite struct OverlayTests {
  private func runningSession(memory: OverlayMemory? = nil) throws -> (
    CaptureSession, [CaptureSlider]
  ) {
    let session = CaptureSession(device: try device("iphone-16-pro"), overlayMemory: memory)
    let sliders = try ["A", "B", "C"].map { title in
      let slider = try CaptureSlider(title, symbolName: "s", in: 0...1)
      slider.setActionQueue(DispatchQueue(label: title)) { _ in }
      slider.accessibilityIdentifier = title.lowercased()
      return slider
    }
    try session.configure { for slider in sliders { try $0.addControl(slider) } }
    session.startRunning()
    return (session, sliders)
  }

  @Test func activeOnlyWhenRunningWithControlsAndDelegate() throws {
    let session = CaptureSession(device: try device("iphone-16-pro"))
    let delegate = RecordingDelegate()
    let queue = DispatchQueue(label: "delegate")
    try session.setControlsDelegate(delegate, queue: queue)
    session.startRunning()
    #expect(!session.canActivateControls && !session.lightPress())
    session.stopRunning()
    try session.addControl(try CaptureSlider.systemZoom(device: try #require(session.device)))
    #expect(!session.lightPress())
    session.startRunning()
    #expect(session.lightPress() && session.isOverlayActive)
    try session.setControlsDelegate(nil, queue: nil)
    #expect(!session.isOverlayActive && !session.lightPress())
    queue.sync {}
    #expect(delegate.events.all == ["active", "enter", "exit", "inactive"])
  }

  @Test func delegateEventsArriveInOrderOnTheQueue() throws {
    let (session, _) = try runningSession()
    let delegate = RecordingDelegate()
    let queue = DispatchQueue(label: "delegate")
    try session.setControlsDelegate(delegate, queue: queue)
    for _ in 0..<3 {
      session.lightPress()
      session.lightPress()
      session.dismissOverlay()
      session.dismissOverlay()
    }
    session.lightPress()
    session.stopRunning()
    queue.sync {}
    #expect(
      delegate.events.all
        == Array(repeating: ["active", "enter", "exit", "inactive"], count: 4).flatMap { $0 })
  }

  @Test func aLightDoublePressShowsTheControlsToPickFrom() throws {
    let (session, sliders) = try runningSession()
    let delegate = RecordingDelegate()
    let queue = DispatchQueue(label: "delegate")
    try session.setControlsDelegate(delegate, queue: queue)
    // Raw light-press phases, recognised: two quick presses are one double press.
    let presses = try PressRecognizer(doublePressInterval: 0.25, longPressDuration: 0.5)
    let down = CaptureEvent(phase: .began, kind: .secondary)
    let up = CaptureEvent(phase: .ended, kind: .secondary)
    var recognised: [PressRecognizer.Recognized] = []
    for (event, time) in [(down, 0.0), (up, 0.125), (down, 0.25), (up, 0.375)] {
      recognised += presses.receive(event, at: time)
    }
    #expect(recognised.map(\.gesture) == [.double])
    for press in recognised { #expect(session.handle(press)) }
    #expect(session.isOverlayActive && session.isShowingControlList)
    // Picking a control closes the list and shows that control.
    try session.selectOverlayControl(sliders[0])
    #expect(!session.isShowingControlList && session.overlayControl === sliders[0])
    // A light double-press with the overlay open shows the list again, without new lifecycle events.
    #expect(session.lightDoublePress() && session.isShowingControlList)
    session.dismissOverlay()
    #expect(!session.isOverlayActive && !session.isShowingControlList)
    // A primary press is the capture interaction's, not the overlay's.
    #expect(!session.handle(.init(kind: .primary, gesture: .double, time: 1)))
    queue.sync {}
    #expect(delegate.events.all == ["active", "enter", "exit", "inactive"])
  }

  @Test func overlayOpensOnTheMiddleThenOnTheLastUsedControl() throws {
    let (session, sliders) = try runningSession()
    try session.setControlsDelegate(RecordingDelegate(), queue: DispatchQueue(label: "d"))
    session.lightPress()
    #expect(session.overlayControl === sliders[1])
    try session.userSlide(sliders[2], to: 0.4)
    #expect(session.overlayControl === sliders[2] && session.lastUsedControlKey == "c")
    session.dismissOverlay()
    #expect(session.overlayControl == nil)
    session.lightPress()
    #expect(session.overlayControl === sliders[2])
    try session.selectOverlayControl(sliders[0])
    #expect(session.overlayControl === sliders[0])
  }

  @Test func lastUsedControlIsRememberedAcrossSessions() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let memory = try OverlayMemory(appIdentifier: "com.example.camera", directory: directory)
    let (first, firstSliders) = try runningSession(memory: memory)
    try first.userSlide(firstSliders[0], to: 0.7)
    #expect(memory.lastControlKey() == "a")

    let (second, secondSliders) = try runningSession(memory: memory)
    try second.setControlsDelegate(RecordingDelegate(), queue: DispatchQueue(label: "d"))
    second.lightPress()
    #expect(second.overlayControl === secondSliders[0])

    let other = try OverlayMemory(appIdentifier: "org.other", directory: directory)
    #expect(other.lastControlKey() == nil)
    #expect(throws: OverlayMemoryError.self) {
      try OverlayMemory(appIdentifier: "../escape", directory: directory)
    }
  }

  @Test func userInteractionNeedsTheControlInTheSession() throws {
    let (session, _) = try runningSession()
    let stranger = try CaptureSlider("X", symbolName: "x", in: 0...1)
    #expect(throws: SessionError.self) { try session.userSlide(stranger, to: 0.5) }
    #expect(stranger.value == 0)
  }
}
