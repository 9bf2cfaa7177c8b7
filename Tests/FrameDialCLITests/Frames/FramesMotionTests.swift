import Controls
import Foundation
import FrameDial
import TestSupport
import Testing

/// Animated controls through `framedial frames --timeline`: keyframed slides, evaluated at each frame's
/// own time, and sub-pixel zoom windows that move the picture every frame.
@Suite struct FramesMotionTests {
  static let width = 960
  static let height = 8

  /// A dark frame with one soft bright bar (plateau 870 … 890, ramps 24 pixels wide) in red.
  static func barFrame() -> [UInt8] {
    var row: [UInt8] = []
    for x in 0..<width {
      let distance = abs(Double(x) - 880)
      let level = distance <= 10 ? 255 : max(0, 255 - (distance - 10) * 255 / 24)
      row += [UInt8(level.rounded()), 40, 40]
    }
    return Array([[UInt8]](repeating: row, count: height).joined())
  }

  /// The intensity-weighted mean column of red in the middle row.
  static func barCentre(_ frame: [UInt8]) -> Double {
    let row = height / 2
    var (weighted, total) = (0.0, 0.0)
    for x in 0..<width {
      let red = Double(frame[(row * width + x) * 3])
      weighted += Double(x) * red
      total += red
    }
    return weighted / total
  }

  @Test func aSlowKeyframedZoomMovesThePictureEveryFrame() throws {
    let folder = try CLIRunner.scratchFolder("motion-zoom")
    defer { try? FileManager.default.removeItem(at: folder) }
    let timeline = folder.appendingPathComponent("zoom.jsonl")
    // 1.00 → 1.05 over 149 frame times at 30 fps: one keyframed event.
    let duration = 149.0 / 30
    try Data(
      "{\"time\":0,\"type\":\"slide\",\"control\":\"zoom\",\"value\":1.05,\"duration\":\(duration)}\n"
        .utf8
    ).write(to: timeline)
    let frame = Self.barFrame()
    let run = try FramePipe.run(
      [
        "--size", "\(Self.width)x\(Self.height)", "--timeline", timeline.path, "--fps", "30",
      ], input: Array([[UInt8]](repeating: frame, count: 150).joined()))
    #expect(run.status == 0, "\(run.standardError)")
    let output = FramePipe.split(run.output, frameBytes: frame.count)
    #expect(output.count == 150)
    guard output.count == 150 else { return }
    #expect(output[0] == frame)
    // The bar, 560 pixels right of the centre, moves out by about 0.19 pixels a frame: every frame.
    let centres = output.map(Self.barCentre)
    for index in 1..<150 {
      #expect(centres[index] > centres[index - 1], "frame \(index): \(centres[index])")
    }
    #expect(abs(centres[149] - (480 + 400 * 1.05)) < 0.5)
    // Frame k is rendered at zoom 1 + 0.05 · (k / 30) / duration, as the in-process renderer does.
    for index in [1, 40, 149] {
      let zoom = 1 + (1.05 - 1) * min((Double(index) / 30 - 0) / duration, 1)
      let renderer = try FrameRenderer(
        width: Self.width, height: Self.height, pixelFormat: .rgb24,
        controls: LiveControlState(ControlState(zoom: zoom)))
      var expected = [UInt8](repeating: 0, count: frame.count)
      try frame.withUnsafeBytes { input in
        try expected.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
      }
      #expect(output[index] == expected, "frame \(index)")
    }
  }

  @Test func aBadKeyframeIsAUsageErrorNamingTheLine() throws {
    let folder = try CLIRunner.scratchFolder("motion-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let timeline = folder.appendingPathComponent("bad.jsonl")
    try Data(
      """
      {"time":0,"type":"slide","control":"zoom","value":2}
      {"time":1,"type":"slide","control":"zoom","value":1,"duration":2,"curve":"springy"}

      """.utf8
    ).write(to: timeline)
    let run = try FramePipe.run(
      ["--size", "64x48", "--timeline", timeline.path, "--fps", "30"], input: [])
    #expect(run.status == 2)
    #expect(run.standardError.contains("line 2"), "\(run.standardError)")
    #expect(run.standardError.contains("springy"))
  }
}
