import Foundation
import Testing

/// How `framedial video` treats colour: YUV ↔ RGB with the stream's own matrix (as tagged, or guessed
/// by height when untagged), and HDR refused naming its transfer and how to tone-map it.
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

  @Test(arguments: [
    ("smpte2084", "PQ (SMPTE ST 2084)"), ("arib-std-b67", "HLG (ARIB STD-B67)"),
  ])
  func hdrIsRefusedNamingItsTransferAndHowToToneMap(transfer: String, name: String) throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("hdr.mkv")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "160x120", seconds: 0.2)
        + [
          "-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le",
          "-color_trc", transfer, "-color_primaries", "bt2020", "-colorspace", "bt2020nc",
        ])
    let output = root.appendingPathComponent("out").appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path])
    #expect(result.status == 1)
    let message = result.standardError
    #expect(message.contains("hdr.mkv: HDR video with the \(name) transfer"), "\(message)")
    #expect(message.contains("/bt2020/\(transfer))"), "\(message)")
    #expect(message.contains("Tone-map it to SDR BT.709 first"), "\(message)")
    #expect(!FileManager.default.fileExists(atPath: output.deletingLastPathComponent().path))
  }

}
