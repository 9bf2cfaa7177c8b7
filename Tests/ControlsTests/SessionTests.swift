import Dispatch
import Foundation
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
    #expect(session.canAddControl(try CaptureSlider.systemZoom(device: session.device)))
  }

  @Test func maximumAndUnsupportedDevices() throws {
    let session = CaptureSession(device: try device("iphone-16"))
    for index in 0..<10 { try session.addControl(try slider("S\(index)")) }
    let extra = try slider("extra")
    #expect(!session.canAddControl(extra))
    let error = caught(SessionError.self) { try session.addControl(extra) }
    #expect(error == .maximumReached(control: "extra", maximum: 10))
    #expect(error?.description.contains("10") == true)

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
