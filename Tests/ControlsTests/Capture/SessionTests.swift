import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Controls

@Suite struct SessionTests {
  private func slider(_ title: String, action: Bool = true) throws -> CaptureSlider {
    let slider = try CaptureSlider(title, symbolName: "s", in: 0...1)
    if action { slider.setActionQueue(DispatchQueue(label: title)) { _ in } }
    return slider
  }

  @Test func canAddControlRules() throws {
    let session = CaptureSession(device: try device("iphone-16-pro"))
    #expect(session.supportsControls && session.maxControlsCount == 10)
    let first = try slider("A")
    #expect(session.canAddControl(first))
    try session.addControl(first)
    #expect(!session.canAddControl(first))
    #expect(caught(SessionError.self) { try session.addControl(first) } == .duplicate(control: "A"))
    let bare = try slider("B", action: false)
    #expect(!session.canAddControl(bare))
    #expect(
      caught(SessionError.self) { try session.addControl(bare) } == .missingAction(control: "B"))
    let picker = try CaptureIndexPicker("P", symbolName: "p", localizedIndexTitles: ["x"])
    #expect(!session.canAddControl(picker))
    #expect(
      session.canAddControl(try CaptureSlider.systemZoom(device: try #require(session.device))))
  }

  @Test func supportsControlsDependsOnTheInputAddedToTheSession() throws {
    // The scripting guide: supportsControls is false until the session is configured with its input.
    let session = CaptureSession()
    let control = try slider("A")
    #expect(!session.supportsControls && session.maxControlsCount == 0 && session.device == nil)
    #expect(!session.canAddControl(control))
    #expect(throws: SessionError.self) { try session.addControl(control) }
    try session.addInput(try device("iphone-16-pro"))
    #expect(session.supportsControls && session.maxControlsCount == 10)
    #expect(try session.addControl(control))
    #expect(
      caught(SessionError.self) { try session.addInput(try device("iphone-16")) }
        == .inputAlreadyAdded(device: "iphone-16-pro"))
    // An input without a Camera Control leaves it unsupported.
    let old = CaptureSession()
    try old.addInput(try device("iphone-15-pro"))
    #expect(!old.supportsControls && old.maxControlsCount == 0)
  }

  @Test func maximumAndUnsupportedDevices() throws {
    let session = CaptureSession(device: try device("iphone-16"))
    for index in 0..<10 { try session.addControl(try slider("S\(index)")) }
    let extra = try slider("extra")
    // The scripting guide: adding more than maxControlsCount is a no-op, and canAddControl says false.
    #expect(!session.canAddControl(extra))
    #expect(try session.addControl(extra) == false)
    #expect(session.controls.count == 10 && !session.controls.contains { $0 === extra })

    let old = CaptureSession(device: try device("iphone-15-pro"))
    #expect(!old.supportsControls && old.maxControlsCount == 0)
    #expect(!old.canAddControl(extra))
    #expect(throws: SessionError.self) { try old.addControl(extra) }
    #expect(old.controls.isEmpty)
  }

  @Test func configureCommitsAtomically() throws {
    struct Abort: Error {}
    let session = CaptureSession(device: try device("iphone-16-pro"))
    let kept = try slider("kept")
    try session.addControl(kept)
    #expect(throws: Abort.self) {
      try session.configure { configuration in
        try configuration.addControl(try slider("new"))
        try configuration.removeControl(kept)
        throw Abort()
      }
    }
    #expect(session.controls.map(\.title) == ["kept"])
    #expect(throws: SessionError.self) {
      try session.configure { configuration in
        try configuration.addControl(try slider("one"))
        try configuration.addControl(kept)
      }
    }
    #expect(session.controls.map(\.title) == ["kept"])
    try session.configure { configuration in
      try configuration.addControl(try slider("two"))
      try configuration.addControl(try slider("three"))
    }
    #expect(session.controls.map(\.title) == ["kept", "two", "three"])
  }

  @Test func theGuidesIdiomInsideConfigureKeepsTheFirstTen() throws {
    // As the scripting guide writes it: the session's own calls inside configure, eleven controls.
    let session = CaptureSession(device: try device("iphone-16-pro"))
    let controls = try (0..<11).map { try slider("C\($0)") }
    try session.configure { _ in
      for control in controls {
        if session.canAddControl(control) { try session.addControl(control) }
      }
      // Staged, not yet committed: the session shows the staged list on this thread only.
      #expect(session.controls.count == 10)
    }
    #expect(session.controls.map(\.title) == (0..<10).map { "C\($0)" })
  }

  @Test func sessionCallsInsideConfigureCommitTogetherOrNotAtAll() throws {
    struct Abort: Error {}
    let session = CaptureSession(device: try device("iphone-16-pro"))
    let kept = try slider("kept")
    try session.addControl(kept)
    #expect(throws: Abort.self) {
      try session.configure { _ in
        try session.addControl(try slider("new"))
        try session.removeControl(kept)
        // Another thread still sees the committed list while this configuration is open.
        let outside = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        Thread {
          outside.withLock { $0 = session.controls.map(\.title) }
          done.signal()
        }.start()
        done.wait()
        #expect(outside.withLock { $0 } == ["kept"])
        throw Abort()
      }
    }
    #expect(session.controls.map(\.title) == ["kept"])
    // A nested configure joins the outer one and commits with it, without a concurrency error.
    try session.configure { outer in
      try outer.addControl(try slider("one"))
      try session.configure { inner in try inner.addControl(try slider("two")) }
      try session.addControl(try slider("three"))
    }
    #expect(session.controls.map(\.title) == ["kept", "one", "two", "three"])
  }

  @Test func aDelegateNeedsAQueue() throws {
    let session = CaptureSession(device: try device("iphone-16-pro"))
    final class Silent: CaptureSessionControlsDelegate {
      func sessionControlsDidBecomeActive(_ session: CaptureSession) {}
      func sessionControlsWillEnterFullscreenAppearance(_ session: CaptureSession) {}
      func sessionControlsWillExitFullscreenAppearance(_ session: CaptureSession) {}
      func sessionControlsDidBecomeInactive(_ session: CaptureSession) {}
    }
    #expect(
      caught(SessionError.self) { try session.setControlsDelegate(Silent(), queue: nil) }
        == .missingDelegateQueue)
    try session.setControlsDelegate(Silent(), queue: DispatchQueue(label: "d"))
    try session.setControlsDelegate(nil, queue: nil)
  }

  @Test func controlListIsFrozenWhileRunningButEnableWorks() throws {
    let session = CaptureSession(device: try device("iphone-16-pro"))
    let control = try slider("A")
    try session.addControl(control)
    session.startRunning()
    let late = try slider("late")
    #expect(!session.canAddControl(late))
    #expect(
      caught(SessionError.self) { try session.addControl(late) }
        == .frozenWhileRunning(control: "late", operation: "added"))
    #expect(
      caught(SessionError.self) { try session.removeControl(control) }
        == .frozenWhileRunning(control: "A", operation: "removed"))
    control.isEnabled = false
    #expect(!control.isEnabled && session.controls.count == 1)
    session.stopRunning()
    try session.removeControl(control)
    #expect(session.controls.isEmpty)
    #expect(
      caught(SessionError.self) { try session.removeControl(control) }
        == .notInSession(control: "A"))
  }

  @Test func captureModeEnablesAndDisablesInOneCall() throws {
    let session = CaptureSession(device: try device("iphone-16-pro"))
    let both = try slider("both")
    let videoOnly = try slider("video")
    videoOnly.captureModes = [.video]
    let photoOnly = try slider("photo")
    photoOnly.captureModes = [.photo]
    try session.configure {
      for control in [both, videoOnly, photoOnly] { try $0.addControl(control) }
    }
    session.startRunning()
    session.setCaptureMode(.photo)
    #expect(both.isEnabled && !videoOnly.isEnabled && photoOnly.isEnabled)
    session.setCaptureMode(.video)
    #expect(both.isEnabled && videoOnly.isEnabled && !photoOnly.isEnabled)
    #expect(session.captureMode == .video)
  }
}
