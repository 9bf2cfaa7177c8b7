import Foundation
import TestSupport
import Testing
import Video
import Vips

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

  /// A Y4M file (4:2:0, 8-bit) whose header says `width × height` and sample aspect `aspect`, with
  /// `frames` mid-grey frames, or only `bytes` bytes of one frame when given (a header that lies).
  func y4m(
    _ url: URL, width: Int, height: Int, aspect: String = "1:1", frames: Int = 2, bytes: Int? = nil
  ) throws {
    var data = Data("YUV4MPEG2 W\(width) H\(height) F25:1 Ip A\(aspect) C420jpeg\n".utf8)
    let frameBytes = width * height * 3 / 2
    for _ in 0..<(bytes == nil ? frames : 1) {
      data.append(contentsOf: Array("FRAME\n".utf8))
      data.append(Data(repeating: 128, count: bytes ?? frameBytes))
    }
    try data.write(to: url)
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

  @Test func framesOverThePixelLimitAreRefusedBeforeTheirMemoryIsTaken() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // 46 KB that claim 16000×16000 frames: 384 MB each as Y4M, 768 MB as RGB.
    let liar = root.appendingPathComponent("liar.y4m")
    try y4m(liar, width: 16000, height: 16000, bytes: 46_000)
    // `info` allocates no frame: it still describes the file.
    let info = try CLIRunner.run(["info", liar.path])
    #expect(info.status == 0, "\(info.standardError)")
    #expect(info.standardOutput.contains("video 16000×16000, rawvideo yuv420p"))
    for (output, extra) in [("out.mp4", [String]()), ("still.png", ["--frame-at", "0"])] {
      let folder = root.appendingPathComponent(output)
      let run = try MeasuredRun(
        ["video", liar.path, "-o", folder.appendingPathComponent(output).path] + extra)
      #expect(run.ending == .exited(1), "\(output): \(run.errors)")
      #expect(
        run.errors.contains(
          "framedial video: \(liar.path): its video is 16000×16000 (256 megapixels), over the "
            + "pixel limit of 100 megapixels"), "\(run.errors)")
      // Refused before a frame's memory is taken: far below one 768 MB RGB frame.
      #expect(run.peakMegabytes < 400, "\(output): \(run.peakMegabytes) MB")
      #expect(names(in: folder).isEmpty, "\(output) left \(names(in: folder))")
    }
    // --pixel-limit moves the limit, as it does for stills: 320×240 is 76800 pixels.
    let small = root.appendingPathComponent("small.y4m")
    try y4m(small, width: 320, height: 240)
    let output = root.appendingPathComponent("small.mp4")
    let refused = try MeasuredRun(
      ["video", small.path, "-o", output.path, "--pixel-limit", "76799"])
    #expect(refused.ending == .exited(1), "\(refused.errors)")
    #expect(
      refused.errors.contains(
        "its video is 320×240 (76800 pixels), over the pixel limit of 76799"), "\(refused.errors)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
    // A 6000×6000 PNG frame in NUT (36 KB): its container gives the size, so it is refused before
    // FFmpeg's look at the file would decode the 36-megapixel frame.
    let png = root.appendingPathComponent("black.png")
    try Image.fromPixels(
      [UInt8](repeating: 0, count: 6000 * 6000), width: 6000, height: 6000, bands: 1
    ).write(to: png.path, format: .png)
    let nut = root.appendingPathComponent("black.nut")
    try VideoClips.make(nut, ["-i", png.path, "-c:v", "copy", "-f", "nut"])
    let early = try MeasuredRun(
      ["video", nut.path, "-o", output.path, "--pixel-limit", "1000000"])
    #expect(early.ending == .exited(1), "\(early.errors)")
    #expect(
      early.errors.contains(
        "\(nut.path): its video is 6000×6000 (36 megapixels), over the pixel limit of 1.0 "
          + "megapixels"), "\(early.errors)")
    #expect(
      early.peakMegabytes < refused.peakMegabytes + 20,
      "\(early.peakMegabytes) MB against \(refused.peakMegabytes) MB for a 320×240 clip")
    let taken = try CLIRunner.run(
      ["video", small.path, "-o", output.path, "--pixel-limit", "76800"])
    #expect(taken.status == 0, "\(taken.standardError)")
    #expect(try VideoClips.frameTimes(output).count == 2)
    let bad = try CLIRunner.run(["video", small.path, "-o", output.path, "--pixel-limit", "0"])
    #expect(bad.status == 2)
    #expect(bad.standardError.hasPrefix("framedial video: --pixel-limit"))
    // The same default as stills'.
    #expect(VideoTranscoder.defaultPixelLimit == LoadOptions.defaultPixelLimit)
  }

  @Test func aLyingSampleAspectRatioCannotBuildAHugeStill() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // 320×240 pixels each 2000 times as wide as high: a still of 640000×240, 153.6 megapixels.
    let wide = root.appendingPathComponent("wide.y4m")
    try y4m(wide, width: 320, height: 240, aspect: "2000:1")
    let still = root.appendingPathComponent("wide.png")
    let run = try MeasuredRun(["video", wide.path, "-o", still.path, "--frame-at", "0"])
    #expect(run.ending == .exited(1), "\(run.errors)")
    #expect(
      run.errors.contains(
        "framedial video: \(wide.path): its 320×240 frames, of pixel aspect 2000, are shown "
          + "640000×240 (154 megapixels), over the pixel limit of 100 megapixels"), "\(run.errors)")
    #expect(run.peakMegabytes < 400, "\(run.peakMegabytes) MB")
    #expect(!FileManager.default.fileExists(atPath: still.path))
    // Under the limit the still is written at the size shown; --pixel-limit counts that size.
    let square = root.appendingPathComponent("square.y4m")
    try y4m(square, width: 320, height: 240, aspect: "4:1")
    let limited = try CLIRunner.run(
      ["video", square.path, "-o", still.path, "--frame-at", "0", "--pixel-limit", "307199"])
    #expect(limited.status == 1, "\(limited.standardError)")
    #expect(
      limited.standardError.contains(
        "of pixel aspect 4, are shown 1280×240 (307200 pixels), over the pixel limit of 307199"))
    let written = try CLIRunner.run(
      ["video", square.path, "-o", still.path, "--frame-at", "0", "--pixel-limit", "307200"])
    #expect(written.status == 0, "\(written.standardError)")
    let image = try Image(contentsOf: still.path)
    #expect((image.width, image.height) == (1280, 240))
  }

  @Test func videoMuxedAfterSecondsOfAudioIsTranscoded() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // All 10 s of PCM audio come before the first video packet, past FFmpeg's first look (5 s).
    let late = root.appendingPathComponent("late.mkv")
    try VideoClips.make(
      late,
      VideoClips.tone(seconds: 10) + ["-itsoffset", "10"] + VideoClips.testSource()
        + [
          "-map", "1:v", "-map", "0:a", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a",
          "pcm_s16le",
        ])
    let probed = try VideoClips.streams(late)
    #expect((probed.first?["pix_fmt"] as? String ?? "unknown") == "unknown", "\(probed)")
    let info = try CLIRunner.run(["info", late.path])
    #expect(info.status == 0, "\(info.standardError)")
    #expect(
      info.standardOutput.contains("video 320×240, h264 yuv420p 8-bit"), "\(info.standardOutput)")
    let output = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(["video", late.path, "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    // Every frame, at its own time, and the audio.
    #expect(try VideoClips.frameTimes(output) == VideoClips.frameTimes(late))
    let streams = try VideoClips.streams(output).compactMap { $0["codec_name"] as? String }
    #expect(streams == ["h264", "pcm_s16le"])
  }

  @Test func subtitlesTheOutputCannotHoldAreLeftOutWithAWarning() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let subtitles = root.appendingPathComponent("words.srt")
    try "1\n00:00:00,000 --> 00:00:00,800\nHello\n".write(
      to: subtitles, atomically: true, encoding: .utf8)
    let input = root.appendingPathComponent("titled.mp4")
    try VideoClips.make(
      input,
      VideoClips.testSource() + ["-i", subtitles.path, "-c:v", "libx264", "-c:s", "mov_text"])
    // Matroska holds no mov_text: the subtitles are left out, as a data stream would be.
    let mkv = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(["video", input.path, "-o", mkv.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "framedial video: warning: \(input.path): stream 1 (subtitle mov_text, which FFmpeg's "
          + "matroska muxer cannot hold) is not copied"), "\(result.standardError)")
    #expect(try VideoClips.streams(mkv).compactMap { $0["codec_name"] as? String } == ["h264"])
    #expect(try VideoClips.frameTimes(mkv).count == 25)
    // MOV holds them: they are copied, without a warning.
    let mov = root.appendingPathComponent("out.mov")
    let kept = try CLIRunner.run(["video", input.path, "-o", mov.path])
    #expect(kept.status == 0, "\(kept.standardError)")
    #expect(!kept.standardError.contains("warning"), "\(kept.standardError)")
    #expect(
      try VideoClips.streams(mov).compactMap { $0["codec_name"] as? String }
        == ["h264", "mov_text"])
  }

  @Test func aStartPastTheLastVideoFrameIsRefusedNamingTheVideoLengthInBoundedMemory() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // 1 s of video and a minute of 8-channel 32-bit audio (about 85 MB): the file lasts a minute.
    let input = root.appendingPathComponent("talk.mov")
    try VideoClips.make(
      input,
      VideoClips.testSource() + VideoClips.tone(seconds: 60)
        + ["-ac", "8", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "pcm_s32le"])
    let inside = try MeasuredRun(
      ["video", input.path, "-o", root.appendingPathComponent("in.mov").path, "--start", "0.5"])
    #expect(inside.ending == .exited(0), "\(inside.errors)")
    let folder = root.appendingPathComponent("past")
    let past = try MeasuredRun(
      ["video", input.path, "-o", folder.appendingPathComponent("out.mov").path, "--start", "5"])
    #expect(past.ending == .exited(1), "\(past.errors)")
    #expect(
      past.errors.contains(
        "framedial video: \(input.path): the start, 5 s, is past the end of its video, which "
          + "lasts 1 s"), "\(past.errors)")
    #expect(names(in: folder).isEmpty, "left \(names(in: folder))")
    // The audio read on the way is not held: no more memory than a start inside the video takes.
    #expect(
      past.peakMegabytes < inside.peakMegabytes + 40,
      "\(past.peakMegabytes) MB past the end, \(inside.peakMegabytes) MB inside")
  }
}
