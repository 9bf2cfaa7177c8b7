import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// The README's library example, run as printed: the test's code between the markers must equal the
/// README's Swift block line for line (imports aside, the two file names standing for `inputPath` and
/// `outputPath`), so the front door never shows code that does not compile or does not do what it says.
@Suite struct ReadmeExampleTests {
  // Spelled in two parts, so that only the markers in the test below match them.
  static let startMarker = "// --- README example " + "starts ---"
  static let endMarker = "// --- README example " + "ends ---"

  @Test func controlsDriveStillsAndFrames() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let inputPath = RenderFixtures.sample("coffee.heic")
    let outputPath = folder.appendingPathComponent("out.jpg").path

    // --- README example starts ---
    let device = CaptureDevice(model: try CaptureDeviceModel.named("iphone-16-pro"))
    let controls = try StandardControls(device: device)
    let session = CaptureSession(device: device)
    try controls.install(in: session)
    session.startRunning()
    // A slide lands on a value and publishes the new state before it returns.
    try session.userSlide(controls.exposureBias, to: 0.7)

    // Stills: read, orient, render in the photo's own colour space, write atomically with metadata.
    let state = controls.live.snapshot().state
    try StillRenderer().renderFile(
      at: inputPath, to: outputPath, state: state, options: StillOptions(quality: 90))

    // Frames: one render thread; the controls may change from any thread, and each frame
    // reads the latest state. A change that arrives before a frame is half computed restarts
    // that frame (`restartWindow`, 0 = never).
    let frames = try FrameRenderer(
      width: 1920, height: 1080, pixelFormat: .rgb24, controls: controls.live)
    let frame = [UInt8](repeating: 100, count: 1920 * 1080 * 3)  // a decoded RGB frame
    var processed = [UInt8](repeating: 0, count: frame.count)
    try frame.withUnsafeBytes { source in
      try processed.withUnsafeMutableBytes { _ = try frames.render(source, into: $0) }
    }
    // --- README example ends ---

    #expect(state.exposureBias == 0.7)
    #expect(try Image(contentsOf: outputPath).width == 600)
    // EV +0.7 on code 100: linear × 2^0.7, re-encoded.
    let linear = pow((100.0 / 255 + 0.055) / 1.055, 2.4) * pow(2, 0.7)
    let expected = UInt8((1.055 * pow(linear, 1 / 2.4) - 0.055) * 255 + 0.5)
    #expect(
      processed.allSatisfy { abs(Int($0) - Int(expected)) <= 1 }, "\(processed[0]) vs \(expected)")
  }

  @Test func theReadmeShowsExactlyTheCodeThatRuns() throws {
    let readme = try String(
      contentsOf: RenderFixtures.samples.deletingLastPathComponent().appendingPathComponent(
        "README.md"), encoding: .utf8)
    guard
      let block = readme.components(separatedBy: "```swift\n").dropFirst().first(where: {
        $0.hasPrefix("import Controls\nimport FrameDial\n")
      })?.components(separatedBy: "```").first
    else {
      Issue.record("the README has no library example")
      return
    }
    let printed = lines(block).filter { !$0.hasPrefix("import ") }
      .map {
        $0.replacingOccurrences(of: "\"in.heic\"", with: "inputPath")
          .replacingOccurrences(of: "\"out.jpg\"", with: "outputPath")
      }
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let ran = lines(
      source.components(separatedBy: Self.startMarker).dropFirst().first?
        .components(separatedBy: Self.endMarker).first ?? "")
    #expect(!printed.isEmpty)
    #expect(printed == ran)
  }

  /// Non-empty lines without their indentation.
  private func lines(_ text: String) -> [String] {
    text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
  }
}
