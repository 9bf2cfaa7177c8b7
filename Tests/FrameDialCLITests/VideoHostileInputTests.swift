import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial video`, `--frame-at` and `info` on inputs that lie or are huge: times past what
/// timestamps hold, pictures of gigabytes claimed by a few kilobytes, a sample aspect ratio that
/// stretches a still to billions of pixels, a video that starts after seconds of audio, subtitles the
/// output cannot hold, a start past the end of the video.
@Suite struct VideoHostileInputTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("video-hostile") }

  /// Every name in `folder`, hidden ones too (a temporary file is hidden).
  func names(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  @Test func hugeTimesNeitherTrapNorLeaveAPartialFile() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let clip = root.appendingPathComponent("clip.mp4")
    try VideoClips.make(clip, VideoClips.testSource() + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
    // A raw H.264 stream: FFmpeg knows no duration for it.
    let raw = root.appendingPathComponent("raw.h264")
    try VideoClips.make(raw, VideoClips.testSource() + ["-c:v", "libx264", "-f", "h264"])
    let huge = "1" + String(repeating: "0", count: 30)
    let frames = try VideoClips.frameTimes(clip).count
    #expect(frames == 25)
    // A duration past what any timestamp holds keeps everything to the end, on any file.
    for input in [clip, raw] {
      let folder = root.appendingPathComponent("whole-\(input.pathExtension)")
      let output = folder.appendingPathComponent("out.mp4")
      let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--duration", huge])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(try VideoClips.frameTimes(output).count == frames)
      #expect(names(in: folder) == ["out.mp4"])
    }
    // A huge start or --frame-at on the raw stream ends in a message, not a trap; nothing is left.
    for (option, name) in [("--start", "cut.mp4"), ("--frame-at", "still.png")] {
      let folder = root.appendingPathComponent(String(option.dropFirst(2)))
      let output = folder.appendingPathComponent(name)
      let result = try CLIRunner.run(["video", raw.path, "-o", output.path, option, huge])
      #expect(result.status == 1, "\(option): \(result.standardError)")
      #expect(result.standardError.hasPrefix("framedial video: \(raw.path): "))
      #expect(names(in: folder).isEmpty, "\(option) left \(names(in: folder))")
    }
  }
}
