import Foundation
import TestSupport
import Testing

/// How `framedial video` treats colour: YUV ↔ RGB with the stream's own matrix (as tagged, or guessed
/// by height when untagged). HDR input is VideoHDRTests'.
@Suite struct VideoColourTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("video-colour") }

  @Test(arguments: ["yuv420p", "yuv420p10le"])
  func theMatrixFollowsTheStreamsTagOrItsHeight(pixelFormat: String) throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // testsrc2 converted to YUV with BT.601 (ffmpeg's default), losslessly; tagged three ways.
    let tags: [(String, [String])] = [
      ("bt601.mkv", ["-colorspace", "smpte170m", "-color_range", "tv"]),
      ("untagged.mkv", []),
      ("mislabelled.mkv", ["-colorspace", "bt709", "-color_range", "tv"]),
    ]
    var quality: [String: Double] = [:]
    for (name, tag) in tags {
      let input = root.appendingPathComponent(name)
      try VideoClips.make(
        input,
        VideoClips.testSource(size: "640x480", seconds: 0.2)
          + ["-c:v", "libx264", "-qp", "0", "-pix_fmt", pixelFormat] + tag)
      let output = root.appendingPathComponent("out-" + name)
      // EV +0.01 sends every frame through RGB and back, changing it by under a code value.
      let result = try CLIRunner.run(
        ["video", input.path, "-o", output.path, "--set", "ev=0.01", "--crf", "0"])
      #expect(result.status == 0, "\(result.standardError)")
      quality[name] = try VideoClips.psnr(output, against: input)
    }
    // BT.601 pixels read as BT.601 (tagged, or untagged below 720 lines) come back close (4:2:0
    // chroma resampled twice); read as the tag's BT.709 they come back shifted, as the tag asks.
    #expect(quality["bt601.mkv", default: 0] > 40, "\(quality)")
    #expect(quality["untagged.mkv", default: 0] > 40, "\(quality)")
    #expect(quality["mislabelled.mkv", default: 99] < 37, "\(quality)")
  }
}
