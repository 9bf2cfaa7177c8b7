import Foundation
import TestSupport
import Testing

/// What `framedial video` writes, whatever the input: 4:2:0 H.264 (8-bit) or HEVC (Main 10 for deep
/// input), HEVC tagged `hvc1`, Y′CbCr from RGB tagged with its real matrix, the sample aspect ratio
/// kept; every output decodes frame for frame.
@Suite struct VideoOutputFormatTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("video-output") }

  /// The first video stream's entries in ffprobe's streams of `url`.
  func video(_ url: URL) throws -> [String: Any] {
    try VideoClips.streams(url).first { $0["codec_type"] as? String == "video" } ?? [:]
  }

  /// The frames FFmpeg decodes from `url`'s video, and its decoder's error lines.
  func decoded(_ url: URL) throws -> (frames: Int, errors: String) {
    let count = try VideoClips.run(
      "ffprobe",
      [
        "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "stream=nb_read_frames", "-of", "csv=p=0", url.path,
      ])
    let errors = try VideoClips.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "null", "-"])
    let frames = Int(count.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    return (frames, errors.errors)
  }

  /// A 30-frame 320×240 ProRes 422 clip (10-bit `yuv422p10le`) in MOV.
  func makeProRes(_ url: URL) throws {
    try VideoClips.make(
      url,
      VideoClips.testSource(size: "320x240", rate: 30, seconds: 1)
        + ["-c:v", "prores_ks", "-profile:v", "2", "-pix_fmt", "yuv422p10le"])
  }

  @Test func tenBitProResBecomesHEVCMainTenThatDecodesEveryFrame() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("prores.mov")
    try makeProRes(input)
    #expect(try video(input)["pix_fmt"] as? String == "yuv422p10le")
    let output = root.appendingPathComponent("out.mov")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.3"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(!result.standardError.contains("warning"), "\(result.standardError)")
    #expect(result.standardOutput.contains("(320×240 hevc yuv420p10le, 30 frames)"))
    let stream = try video(output)
    #expect(stream["codec_name"] as? String == "hevc")
    #expect(stream["profile"] as? String == "Main 10")
    #expect(stream["pix_fmt"] as? String == "yuv420p10le")
    #expect(stream["codec_tag_string"] as? String == "hvc1")
    let check = try decoded(output)
    #expect(check.frames == 30)
    #expect(check.errors.isEmpty, "\(check.errors)")
  }

  @Test func tenBitProResAskedAsH264IsEightBitFourTwoZeroWithAWarning() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("prores.mov")
    try makeProRes(input)
    let output = root.appendingPathComponent("out.mov")
    let result = try CLIRunner.run(
      ["video", input.path, "-o", output.path, "--codec", "h264", "--set", "ev=0.3"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "framedial video: warning: H.264 is written 8-bit 4:2:0 (yuv420p), which every player "
          + "decodes: the 10-bit input loses its depth (--codec hevc keeps 10 bits)"),
      "\(result.standardError)")
    let stream = try video(output)
    #expect(stream["codec_name"] as? String == "h264")
    #expect(stream["pix_fmt"] as? String == "yuv420p")
    #expect(stream["codec_tag_string"] as? String == "avc1")
    #expect(try decoded(output).frames == 30)
  }

  @Test(arguments: ["mp4", "mov"])
  func hevcIsTaggedHvc1(container: String) throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in.mkv")
    try VideoClips.make(
      input, VideoClips.testSource(size: "160x120", seconds: 0.4) + ["-c:v", "libx264"])
    let output = root.appendingPathComponent("out.\(container)")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--codec", "hevc"])
    #expect(result.status == 0, "\(result.standardError)")
    let stream = try video(output)
    #expect(stream["codec_name"] as? String == "hevc")
    #expect(stream["codec_tag_string"] as? String == "hvc1")
    #expect(try decoded(output).frames == 10)
  }

  /// RGB clips tagged with the GBR matrix: FFV1 (8-bit, which FFV1 stores as `bgr0`, and 10-bit
  /// `gbrp10le`) in Matroska, QuickTime RLE and PNG in MOV.
  @Test(arguments: [
    ("gbr.mkv", ["-pix_fmt", "gbrp", "-c:v", "ffv1"]),
    ("gbr10.mkv", ["-pix_fmt", "gbrp10le", "-c:v", "ffv1"]),
    ("qtrle.mov", ["-pix_fmt", "rgb24", "-c:v", "qtrle", "-movflags", "+write_colr"]),
    ("png.mov", ["-pix_fmt", "rgb24", "-c:v", "png", "-movflags", "+write_colr"]),
  ])
  func rgbInputIsWrittenAsYUVTaggedWithTheMatrixItIsConvertedWith(
    name: String, encoding: [String]
  ) throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent(name)
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "320x240", seconds: 0.4) + encoding + ["-colorspace", "rgb"])
    #expect(try video(input)["color_space"] as? String == "gbr")
    let output = root.appendingPathComponent("out-" + name)
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--crf", "0"])
    #expect(result.status == 0, "\(result.standardError)")
    let stream = try video(output)
    let format = stream["pix_fmt"] as? String ?? ""
    #expect(format == (name == "gbr10.mkv" ? "yuv420p10le" : "yuv420p"), "\(stream)")
    #expect(stream["color_space"] as? String == "bt709", "\(stream)")
    #expect(stream["color_range"] as? String == "tv", "\(stream)")
    // The samples are the input converted with BT.709 at TV range, as ffmpeg converts it; converted
    // with BT.601 they would differ by far more.
    var quality: [String: Double] = [:]
    for matrix in ["bt709", "bt601"] {
      let reference = root.appendingPathComponent("\(matrix).mkv")
      try VideoClips.make(
        reference,
        [
          "-i", input.path, "-vf", "scale=out_color_matrix=\(matrix):out_range=tv,format=\(format)",
          "-c:v", "ffv1",
        ])
      quality[matrix] = try VideoClips.psnr(output, against: reference)
    }
    #expect(quality["bt709", default: 0] > 40, "\(quality)")
    #expect(quality["bt601", default: 99] < 30, "\(quality)")
  }

  @Test(arguments: ["mp4", "mkv"])
  func aSampleAspectRatioTheEncoderRefusesIsKeptInTheContainer(container: String) throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // 50:1 on 48 lines: FFmpeg's encoders drop a ratio that scales a side below one pixel.
    let input = root.appendingPathComponent("wide.\(container)")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "64x48", seconds: 0.2)
        + ["-vf", "setsar=50/1", "-c:v", "libx264"])
    #expect(try video(input)["sample_aspect_ratio"] as? String == "50:1")
    let output = root.appendingPathComponent("out.\(container)")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.3"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try video(output)["sample_aspect_ratio"] as? String == "50:1")
    #expect(try decoded(output).frames == 5)
  }
}
