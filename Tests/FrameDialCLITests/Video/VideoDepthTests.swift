import Foundation
import TestSupport
import Testing

/// `framedial video` on 10-bit and 12-bit clips: rendered on the 16-bit path, written as HEVC Main 10
/// (10 bits at most, 4:2:0), levels kept; 8-bit stays 8-bit; H.264 asked for is 8-bit.
@Suite struct VideoDepthTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("video-depth") }

  /// The first video stream's entries in ffprobe's streams of `url`.
  func video(_ url: URL) throws -> [String: Any] {
    try VideoClips.streams(url).first { $0["codec_type"] as? String == "video" } ?? [:]
  }

  /// A 512×64 ramp of 64 luma steps 8 pixels wide, 10-bit codes 400 … 463 (one code apart: 8 bits
  /// hold 16 of them), encoded losslessly in `pixelFormat`.
  func makeRamp(_ url: URL, pixelFormat: String = "yuv420p10le") throws {
    try VideoClips.make(
      url,
      [
        "-f", "lavfi", "-i",
        "nullsrc=size=512x64:rate=25:duration=0.4,format=yuv420p10le,"
          + "geq=lum='400+floor(X/8)':cb=512:cr=512",
        "-c:v", "libx264", "-qp", "0", "-pix_fmt", pixelFormat,
      ])
  }

  /// Per ramp step: the luma at its centre pixel (row 32), and its mean over the step's inner block.
  func steps(_ url: URL) throws -> (centres: [UInt16], means: [Double]) {
    let luma = try VideoClips.luma16(url)
    guard luma.count == 512 * 64 else { return ([], []) }
    let centres = (0..<64).map { luma[32 * 512 + $0 * 8 + 4] }
    let means = (0..<64).map { step in
      let block = (16..<48).flatMap { row in (2..<6).map { Double(luma[row * 512 + step * 8 + $0]) }
      }
      return block.reduce(0, +) / Double(block.count)
    }
    return (centres, means)
  }

  /// By default and with `--codec hevc`, 10-bit H.264 becomes 10-bit HEVC.
  @Test(arguments: [[], ["--codec", "hevc"]])
  func aTenBitRampKeepsItsSixtyFourLevels(codec: [String]) throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("ramp.mkv")
    try makeRamp(input)
    let before = try steps(input)
    #expect(Set(before.centres).count == 64)
    let output = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(
      ["video", input.path, "-o", output.path, "--set", "ev=0.1"] + codec)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("(512×64 hevc yuv420p10le, 10 frames)"))
    let stream = try video(output)
    #expect(stream["pix_fmt"] as? String == "yuv420p10le")
    #expect(stream["codec_name"] as? String == "hevc")
    let after = try steps(output)
    // 64 distinct levels in order (the 8-bit pipe keeps 15), each brighter than it was.
    #expect(Set(after.centres).count == 64, "\(after.centres)")
    #expect(zip(after.means, after.means.dropFirst()).allSatisfy { $0 < $1 }, "\(after.means)")
    #expect(zip(after.means, before.means).allSatisfy { $0 > $1 })
  }

  @Test func eightBitVideoStaysEightBit() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("ramp8.mkv")
    try makeRamp(input, pixelFormat: "yuv420p")
    let output = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.1"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try video(output)["pix_fmt"] as? String == "yuv420p")
    // 8-bit codes hold at most 17 of the 64 ten-bit steps.
    #expect(Set(try steps(output).centres).count <= 17)
  }

  @Test func twelveBitGoesToTenBitHEVCByDefaultAndToEightBitH264WithAWarning() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("twelve.mkv")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "160x120", seconds: 0.2)
        + ["-pix_fmt", "yuv420p12le", "-c:v", "ffv1"])
    let hevc = root.appendingPathComponent("hevc.mkv")
    let first = try CLIRunner.run(["video", input.path, "-o", hevc.path, "--set", "ev=0.3"])
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardOutput.contains("160×120 hevc yuv420p10le"))
    #expect(
      first.standardError.contains(
        "warning: HEVC is written 10-bit at most (Main 10, yuv420p10le), which players decode: "
          + "the 12-bit input loses 2 bits"), "\(first.standardError)")
    #expect(try video(hevc)["pix_fmt"] as? String == "yuv420p10le")
    let h264 = root.appendingPathComponent("h264.mkv")
    let second = try CLIRunner.run(
      ["video", input.path, "-o", h264.path, "--set", "ev=0.3", "--codec", "h264"])
    #expect(second.status == 0, "\(second.standardError)")
    #expect(
      second.standardError.contains(
        "warning: H.264 is written 8-bit 4:2:0 (yuv420p), which every player decodes: the 12-bit "
          + "input loses its depth"), "\(second.standardError)")
    #expect(try video(h264)["pix_fmt"] as? String == "yuv420p")
  }

  @Test func nineBitFourTwoTwoIsWrittenTenBitFourTwoZeroWithoutAWarning() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("nine.mkv")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "160x120", seconds: 0.2)
        + ["-pix_fmt", "yuv422p9le", "-c:v", "ffv1"])
    let output = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.3"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(!result.standardError.contains("warning"), "\(result.standardError)")
    let stream = try video(output)
    #expect(stream["pix_fmt"] as? String == "yuv420p10le")
    #expect(stream["codec_name"] as? String == "hevc")
  }

  @Test func anOddSizedTenBitClipBecomesTenBitFourFourFour() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("odd.mkv")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "322x242", seconds: 0.2)
        + ["-vf", "format=yuv444p,crop=321:241:0:0,format=yuv420p10le", "-c:v", "ffv1"])
    let output = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.5"])
    #expect(result.status == 0, "\(result.standardError)")
    let stream = try video(output)
    #expect(stream["pix_fmt"] as? String == "yuv444p10le")
    #expect(stream["width"] as? Int == 321 && stream["height"] as? Int == 241)
  }
}
