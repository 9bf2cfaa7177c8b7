import Foundation
import TestSupport
import Testing
import Vips

/// `framedial video --start/--duration`, `--frame-at` and `--json` on clips whose frames say their own
/// number: frame N of `numbered` is a flat grey of luma 16 + 2N.
@Suite struct VideoSpanTests {
  /// FrameDial's conversion to RGB, for ffmpeg's reference stills.
  static let swsFlags = "bicubic+accurate_rnd+full_chroma_int"

  /// 4 s at 25 fps of 64×48 frames of luma 16 + 2N, losslessly coded with a key frame every 10 frames,
  /// with AAC audio.
  func numbered(in root: URL) throws -> URL {
    let url = root.appendingPathComponent("numbered.mp4")
    try VideoClips.make(
      url,
      [
        "-f", "lavfi", "-i", "color=c=black:s=64x48:r=25:d=4,geq=lum='16+N*2':cb=128:cr=128",
      ] + VideoClips.tone(seconds: 4)
        + ["-c:v", "libx264", "-qp", "0", "-g", "10", "-c:a", "aac", "-shortest"])
    return url
  }

  /// The frame number of a flat grey RGB still of `numbered` (limited range: RGB = 2N × 255 / 219).
  func frameNumber(ofStill url: URL) throws -> Double {
    try Image(contentsOf: url.path).average() / (2 * 255 / 219)
  }

  /// The mean luma of the first video frame of `url`.
  func firstFrameLuma(_ url: URL) throws -> Double {
    let result = try VideoClips.run(
      "ffmpeg",
      [
        "-hide_banner", "-i", url.path, "-frames:v", "1", "-vf",
        "signalstats,metadata=print:key=lavfi.signalstats.YAVG", "-f", "null", "-",
      ])
    guard let range = result.errors.range(of: "YAVG=") else { return -1 }
    return Double(result.errors[range.upperBound...].prefix { $0.isNumber || $0 == "." }) ?? -1
  }

  /// ffprobe's packet times (seconds) of the first stream of `kind` ("v", "a") of `url`.
  func packetTimes(_ url: URL, _ kind: String) throws -> [Double] {
    let result = try VideoClips.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "\(kind):0", "-show_entries", "packet=pts_time",
        "-of", "csv=p=0", url.path,
      ])
    return result.output.split(separator: "\n").compactMap {
      Double($0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ","))))
    }
  }

  @Test func startAndDurationKeepTheFramesOfTheSpanFromZeroWithTheirAudio() throws {
    let root = try CLIRunner.scratchFolder("video-span")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try numbered(in: root)
    // 1.02 s lies between frames 25 (1.00 s) and 26 (1.04 s): the span keeps frames 26 … 62
    // (2.48 s; 2.52 s is past 1.02 + 1.5), 37 frames, the first at 0.
    for (start, duration) in [("1.02", "1.5"), ("00:00:01.020", "0:01.5")] {
      let output = root.appendingPathComponent("cut.mp4")
      let result = try CLIRunner.run(
        ["video", input.path, "-o", output.path, "-y", "--start", start, "--duration", duration])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.contains("37 frames"), "\(result.standardOutput)")
      let times = try VideoClips.frameTimes(output).compactMap {
        Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ",")))
      }
      #expect(times.count == 37)
      #expect(times.first == 0 && abs((times.last ?? 0) - 1.44) < 1e-6, "\(times)")
      // Lossless frames: the first is frame 26, luma 16 + 52.
      #expect(abs(try firstFrameLuma(output) - 68) < 0.5)
      // Audio: whole packets from the first frame's time, ending with the span.
      let audio = try packetTimes(output, "a")
      let first = audio.first ?? -1
      #expect(first >= 0 && first < 0.03, "\(audio.prefix(3))")
      #expect(abs((audio.last ?? 0) - 1.46) < 0.03, "\(audio.suffix(3))")
    }
    let listed = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    #expect(listed == ["cut.mp4", "numbered.mp4"])
  }

  @Test func badTimesAreRefusedNamingTheValue() throws {
    let root = try CLIRunner.scratchFolder("video-span-bad")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try numbered(in: root)
    let output = root.appendingPathComponent("out.mp4").path
    let usage: [([String], String)] = [
      (["--start", "-1"], "--start must be a time of 0 or more"),
      (["--start", "abc"], "not 'abc'"),
      (["--start", "1:70"], "not '1:70'"),
      (["--duration", "0"], "--duration must be more than 0 s, not '0'"),
      (["--frame-at", "1", "--start", "1"], "--start and --duration do not apply"),
    ]
    for (extra, message) in usage {
      let result = try CLIRunner.run(["video", input.path, "-o", output] + extra)
      #expect(result.status == 2, "\(extra)")
      #expect(result.standardError.contains(message), "\(result.standardError)")
    }
    let still = root.appendingPathComponent("still.png").path
    let past: [([String], String)] = [
      (["-o", output, "--start", "9"], "--start 9 s is past the end of"),
      (["-o", still, "--frame-at", "4.5"], "--frame-at 4.5 s is past the end of"),
    ]
    for (extra, message) in past {
      let result = try CLIRunner.run(["video", input.path] + extra)
      #expect(result.status == 1)
      #expect(result.standardError.contains(message), "\(result.standardError)")
      #expect(result.standardError.contains("which lasts 4 s"), "\(result.standardError)")
    }
    let stillForVideo = try CLIRunner.run(["video", input.path, "-o", output, "--frame-at", "1"])
    #expect(stillForVideo.status == 2)
    #expect(stillForVideo.standardError.contains("--frame-at writes a still"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["numbered.mp4"])
  }

  @Test func frameAtWritesTheFrameShownAtThatTime() throws {
    let root = try CLIRunner.scratchFolder("video-still")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try numbered(in: root)
    // The frame shown at T is the last one presented at or before T (frames every 0.04 s).
    let cases: [(String, Double)] = [
      ("0", 0), ("1", 25), ("1.039", 25), ("1.04", 26), ("3.99", 99),
    ]
    for (time, frame) in cases {
      let still = root.appendingPathComponent("at-\(time).png")
      let result = try CLIRunner.run(["video", input.path, "--frame-at", time, "-o", still.path])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.contains("→ \(still.path) (64×48 png)"))
      #expect(abs(try frameNumber(ofStill: still) - frame) < 0.3, "at \(time)")
    }
    // ffmpeg's own frame at a frame time, converted with the same swscale flags, is the same picture.
    let reference = root.appendingPathComponent("reference.png")
    try VideoClips.make(
      reference, ["-ss", "1.04", "-i", input.path, "-frames:v", "1", "-sws_flags", Self.swsFlags])
    let ours = try Image(contentsOf: root.appendingPathComponent("at-1.04.png").path).average()
    #expect(abs(try Image(contentsOf: reference.path).average() - ours) < 0.5)
    // The frame is processed: brighter with exposure.
    let bright = root.appendingPathComponent("bright.jpg")
    let result = try CLIRunner.run(
      ["video", input.path, "--frame-at", "1.04", "-o", bright.path, "--set", "ev=1"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try Image(contentsOf: bright.path).average() > ours + 10)
  }

  @Test func frameAtTurnsARotatedFrameUprightAndSquaresItsPixels() throws {
    let root = try CLIRunner.scratchFolder("video-still-rotated")
    defer { try? FileManager.default.removeItem(at: root) }
    let plain = root.appendingPathComponent("plain.mp4")
    try VideoClips.make(
      plain, VideoClips.testSource(size: "160x120") + ["-c:v", "libx264", "-qp", "0"])
    let rotated = root.appendingPathComponent("rotated.mp4")
    try VideoClips.make(rotated, ["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    let still = root.appendingPathComponent("still.png")
    let result = try CLIRunner.run(["video", rotated.path, "--frame-at", "0.4", "-o", still.path])
    #expect(result.status == 0, "\(result.standardError)")
    // ffmpeg turns the frame upright as players do: ours must be the same picture.
    let reference = root.appendingPathComponent("reference.png")
    try VideoClips.make(
      reference,
      [
        "-i", rotated.path, "-vf", "select=eq(n\\,10)", "-frames:v", "1", "-sws_flags",
        Self.swsFlags,
      ])
    let (ours, theirs) = (try Image(contentsOf: still.path), try Image(contentsOf: reference.path))
    #expect(ours.width == 120 && ours.height == 160)
    #expect(theirs.width == 120 && theirs.height == 160)
    let (a, b) = (try ours.pixelBytes(), try theirs.pixelBytes())
    let difference = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    // Identical but for rounding (turned the other way, the mean difference is about 185).
    #expect(a.count == b.count && Double(difference) / Double(max(1, a.count)) < 0.1)
    // Anamorphic pixels twice as wide as high: the still is twice as wide.
    let wide = root.appendingPathComponent("wide.mkv")
    try VideoClips.make(wide, ["-i", plain.path, "-vf", "setsar=2", "-c:v", "libx264"])
    let wideStill = root.appendingPathComponent("wide.png")
    let wideResult = try CLIRunner.run(
      ["video", wide.path, "--frame-at", "0", "-o", wideStill.path])
    #expect(wideResult.status == 0, "\(wideResult.standardError)")
    let squared = try Image(contentsOf: wideStill.path)
    #expect(squared.width == 320 && squared.height == 120)
  }

  @Test func jsonPrintsProgressEventsAndADoneEventOnStandardOutput() throws {
    let root = try CLIRunner.scratchFolder("video-json")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try numbered(in: root)
    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(
      ["video", input.path, "-o", output.path, "--set", "ev=0.5", "--json", "--duration", "2"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    let events = try result.standardOutput.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let progress = events.dropLast()
    #expect(!progress.isEmpty)
    for event in progress {
      #expect(event["event"] as? String == "progress")
      #expect((event["frames"] as? Int ?? 0) >= 1 && (event["frames"] as? Int ?? 0) <= 50)
      #expect(event["total"] as? Int == 50)
      #expect(event["fps"] is NSNumber && event["seconds"] is NSNumber)
    }
    let done = try #require(events.last)
    #expect(done["event"] as? String == "done")
    #expect(done["frames"] as? Int == 50)
    #expect(done["output"] as? String == output.path)
    #expect((done["seconds"] as? Double ?? -1) >= 0)
    #expect(try VideoClips.frameTimes(output).count == 50)
  }
}
