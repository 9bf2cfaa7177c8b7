import Foundation
import TestSupport
import Testing

/// `framedial frames` and `framedial video` with `wb=auto` on frames more than 64 times wider than
/// high, whose white-balance sample used to have no rows at all.
@Suite struct WideFrameWhiteBalanceTests {
  @Test func framesBalancesA1920By29Frame() throws {
    let (width, height) = (1920, 29)
    var frame: [UInt8] = []
    for index in 0..<(width * height) {
      let level = 60 + (index % 25) * 6
      frame += [UInt8(level + 40), UInt8(level), UInt8(level - 40)]
    }
    let run = try FramePipe.run(
      ["--size", "\(width)x\(height)", "--set", "wb=auto"], input: frame + frame)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.isEmpty, "\(run.standardError)")
    let frames = FramePipe.split(run.output, frameBytes: frame.count)
    try #require(frames.count == 2 && frames.allSatisfy { $0.count == frame.count })
    var red = 0
    var blue = 0
    for index in stride(from: 0, to: frame.count, by: 3) {
      red += Int(frames[0][index])
      blue += Int(frames[0][index + 2])
    }
    // The input's red is 80 above its blue in every pixel; balanced, they come close.
    #expect(abs(red - blue) / (width * height) < 20)
  }

  @Test func videoBalancesA1920By28Clip() throws {
    let root = try CLIRunner.scratchFolder("video-awb-wide")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("wide.mkv")
    try VideoClips.make(
      input,
      [
        "-f", "lavfi", "-i", "color=c=0xA08060:s=1920x28:r=10:d=0.5", "-vf", "format=yuv420p",
        "-c:v", "libx264", "-qp", "0",
      ])
    let output = root.appendingPathComponent("balanced.mkv")
    let result = try CLIRunner.run(
      ["video", input.path, "-o", output.path, "--set", "wb=auto", "--crf", "0"])
    #expect(result.status == 0, "\(result.standardError)")
    let streams = try VideoClips.streams(output)
    #expect(streams.first?["width"] as? Int == 1920 && streams.first?["height"] as? Int == 28)
  }
}
