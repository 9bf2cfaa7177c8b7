import Foundation
import TestSupport
import Testing

/// `framedial video` refuses to leave an output that does not play: the first frames of every file
/// written are decoded back before it is renamed into place, and a stream the container cannot hold
/// is named with the ways out.
@Suite struct VideoOutputCheckTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("video-check") }

  /// The files left in `folder`, FrameDial's temporaries included.
  func files(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  @Test func hevcInAVIWhichReadsBackAsRawVideoIsAFailureWithNothingLeft() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in.mp4")
    try VideoClips.make(
      input, VideoClips.testSource(size: "160x120", seconds: 0.4) + ["-c:v", "libx264"])
    // FFmpeg 5.1's AVI muxer writes HEVC under no codec tag: the file reads back as raw video.
    let plain = root.appendingPathComponent("plain.avi")
    try VideoClips.make(
      plain, ["-i", input.path, "-c:v", "libx265", "-x265-params", "log-level=error"])
    let streams = try VideoClips.streams(plain)
    #expect(streams.first?["codec_name"] as? String == "rawvideo")
    let output = root.appendingPathComponent("out.avi")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--codec", "hevc"])
    #expect(result.status == 1)
    #expect(
      result.standardError.contains(
        "framedial video: \(output.path): the video written does not play back: FFmpeg reads "
          + "its video back as rawvideo, not hevc"), "\(result.standardError)")
    #expect(result.standardError.contains("name an .mp4, .mov or .mkv output"))
    #expect(files(in: root) == ["in.mp4", "plain.avi"])
    // The same video as H.264 decodes, and is written.
    let h264 = try CLIRunner.run(["video", input.path, "-o", output.path])
    #expect(h264.status == 0, "\(h264.standardError)")
    #expect(try VideoClips.frameTimes(output).count == 10)
  }

  @Test func pcmAudioThatMP4CannotHoldIsNamedWithTheWaysOut() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("pcm.mov")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "160x120", seconds: 0.4) + VideoClips.tone(seconds: 0.4)
        + ["-c:v", "libx264", "-c:a", "pcm_s16le"])
    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.3"])
    #expect(result.status == 1)
    let message = result.standardError
    #expect(
      message.contains(
        "framedial video: \(output.path): the MP4 container cannot hold stream 1 of \(input.path) "
          + "(audio pcm_s16le), which is copied as it is: name a .mov or .mkv output"), "\(message)"
    )
    #expect(message.contains("-c:a aac"), "\(message)")
    #expect(files(in: root) == ["pcm.mov"])
    // MOV holds it, as the message says.
    let mov = root.appendingPathComponent("out.mov")
    let kept = try CLIRunner.run(["video", input.path, "-o", mov.path, "--set", "ev=0.3"])
    #expect(kept.status == 0, "\(kept.standardError)")
    let audio = try VideoClips.streams(mov).first { $0["codec_type"] as? String == "audio" }
    #expect(audio?["codec_name"] as? String == "pcm_s16le")
  }
}
