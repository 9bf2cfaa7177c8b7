import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// The README's library example, run as written (paths aside), so the front door never shows code that
/// does not compile or work.
@Suite struct ReadmeExampleTests {
  @Test func controlsDriveStillsAndFrames() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.jpg").path

    // --- README example starts ---
    let device = CaptureDevice(model: try CaptureDeviceModel.named("iphone-16-pro"))
    let actions = DispatchQueue(label: "controls")
    let controls = try StandardControls(device: device, actionQueue: actions)
    let session = CaptureSession(device: device)
    try controls.install(in: session)
    session.startRunning()
    // A slide lands on a value, runs the action, publishes the state.
    try session.userSlide(controls.exposureBias, to: 0.7)
    actions.sync {}  // (wait for the action)

    let state = controls.live.snapshot().state
    try StillRenderer().renderFile(
      at: RenderFixtures.sample("coffee.heic"), to: output, state: state,
      options: StillOptions(quality: 90))

    let frames = try FrameRenderer(
      width: 600, height: 400, pixelFormat: .rgb24, controls: controls.live)
    let input = try Image(contentsOf: RenderFixtures.sample("coffee.png")).pixelBytes()
    var result = [UInt8](repeating: 0, count: input.count)
    try input.withUnsafeBytes { source in
      try result.withUnsafeMutableBytes { _ = try frames.render(source, into: $0) }
    }
    // --- README example ends ---

    #expect(state.exposureBias == 0.7)
    #expect(try Image(contentsOf: output).width == 600)
    let brighter = result.reduce(0) { $0 + Int($1) } > input.reduce(0) { $0 + Int($1) }
    #expect(brighter)
  }
}
