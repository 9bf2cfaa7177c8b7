import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial video` on clips made with ffmpeg's test sources, checked with ffprobe: frames and their
/// times kept, streams copied, rotation and colour tags kept, refusals clear, nothing half-written.
@Suite struct VideoCommandTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("video") }

  /// The visible files and FrameDial temporaries in `folder`.
  func files(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  /// The first stream of `kind` ("video", "audio") in ffprobe's streams.
  func stream(_ kind: String, of streams: [[String: Any]]) -> [String: Any] {
    streams.first { $0["codec_type"] as? String == kind } ?? [:]
  }

  @Test func identityKeepsFramesTimesAndAudioAndMatchesAPlainReencode() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in.mp4")
    try VideoClips.make(
      input,
      VideoClips.testSource(seconds: 2) + VideoClips.tone(seconds: 2)
        + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"])
    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("(320×240 h264 yuv420p, 50 frames)"))
    let times = try VideoClips.frameTimes(output)
    #expect(times.count == 50)
    #expect(times == (try VideoClips.frameTimes(input)))
    let (inStreams, outStreams) = (try VideoClips.streams(input), try VideoClips.streams(output))
    #expect(stream("audio", of: outStreams)["codec_name"] as? String == "aac")
    #expect(
      stream("audio", of: outStreams)["nb_frames"] as? String
        == stream("audio", of: inStreams)["nb_frames"] as? String)
    // The same encoder settings through ffmpeg itself: our decode and encode add nothing to its loss.
    let reference = root.appendingPathComponent("reference.mp4")
    try VideoClips.make(
      reference,
      ["-i", input.path, "-c:v", "libx264", "-crf", "18", "-preset", "medium", "-c:a", "copy"])
    let ours = try VideoClips.psnr(output, against: input)
    let theirs = try VideoClips.psnr(reference, against: input)
    #expect(ours > 40 && theirs > 40)
    #expect(abs(ours - theirs) <= 0.5, "ours \(ours) dB, ffmpeg's \(theirs) dB")
    #expect(files(in: root) == ["in.mp4", "out.mp4", "reference.mp4"])
  }

  @Test func exposureBrightensAndKeepsTimesOfVariableFrameRate() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // 20 frames at 25 fps, then 30 at 10 fps: variable frame rate.
    let input = root.appendingPathComponent("vfr.mkv")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "160x120", seconds: 2)
        + [
          "-vf", "setpts='if(lt(N,20),N/25,0.8+(N-20)/10)/TB'", "-fps_mode", "passthrough",
          "-c:v", "libx264",
        ])
    let output = root.appendingPathComponent("bright.mkv")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=1"])
    #expect(result.status == 0, "\(result.standardError)")
    let times = try VideoClips.frameTimes(output)
    #expect(times.count == 50)
    #expect(times == (try VideoClips.frameTimes(input)))
    let (before, after) = (try VideoClips.meanLuma(input), try VideoClips.meanLuma(output))
    #expect(before > 0 && after > before + 2, "mean luma \(before) → \(after)")
  }

  @Test func rotationStaysADisplayMatrixOnTheCodedPixels() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let plain = root.appendingPathComponent("plain.mp4")
    try VideoClips.make(plain, VideoClips.testSource() + ["-c:v", "libx264"])
    // FFmpeg 5.1 turns the rotate tag into a display matrix when it copies the stream.
    let input = root.appendingPathComponent("rotated.mp4")
    try VideoClips.make(input, ["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.5"])
    #expect(result.status == 0, "\(result.standardError)")
    func rotation(_ url: URL) throws -> Double? {
      let video = stream("video", of: try VideoClips.streams(url))
      let sideData = video["side_data_list"] as? [[String: Any]] ?? []
      return sideData.compactMap { ($0["rotation"] as? NSNumber)?.doubleValue }.first
    }
    let turned = try rotation(input)
    #expect(turned != nil && turned != 0)
    #expect(try rotation(output) == turned)
    let video = stream("video", of: try VideoClips.streams(output))
    #expect(video["width"] as? Int == 320 && video["height"] as? Int == 240)
  }

  @Test func rotatedVideoIntoMatroskaWarnsThatTheRotationIsLost() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let plain = root.appendingPathComponent("plain.mp4")
    try VideoClips.make(
      plain, VideoClips.testSource(size: "160x120", seconds: 0.2) + ["-c:v", "libx264"])
    let rotated = root.appendingPathComponent("rotated.mp4")
    try VideoClips.make(
      rotated, ["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    let cases: [(URL, String, Bool)] = [
      (rotated, "out.mkv", true), (rotated, "out.webm.mp4", false), (plain, "plain.mkv", false),
    ]
    for (input, name, warns) in cases {
      let output = root.appendingPathComponent(name)
      let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.5"])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(FileManager.default.fileExists(atPath: output.path))
      let warning = "is rotated (90°) but \(output.path) is Matroska, which keeps no rotation"
      #expect(result.standardError.contains(warning) == warns, "\(name): \(result.standardError)")
    }
  }

  @Test func oddSizeWithPCMAudioInMOVIsKept() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("odd.mov")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "322x242") + VideoClips.tone()
        + [
          "-vf", "format=yuv444p,crop=321:241:0:0", "-c:v", "libx264", "-pix_fmt", "yuv444p",
          "-c:a", "pcm_s16le",
        ])
    let output = root.appendingPathComponent("odd-out.mov")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.5"])
    #expect(result.status == 0, "\(result.standardError)")
    let streams = try VideoClips.streams(output)
    let video = stream("video", of: streams)
    #expect(video["width"] as? Int == 321 && video["height"] as? Int == 241)
    #expect(video["pix_fmt"] as? String == "yuv444p")
    #expect(stream("audio", of: streams)["codec_name"] as? String == "pcm_s16le")
    #expect(try VideoClips.frameTimes(output).count == 25)
  }

  @Test func oddSizedFourTwoZeroBecomesFourFourFourRatherThanFailing() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("odd.mkv")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "322x242")
        + ["-vf", "format=yuv444p,crop=321:241:0:0,format=yuv420p", "-c:v", "ffv1"])
    let output = root.appendingPathComponent("odd-out.mkv")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.5"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("321×241 h264 yuv444p"))
    let video = stream("video", of: try VideoClips.streams(output))
    #expect(video["width"] as? Int == 321 && video["pix_fmt"] as? String == "yuv444p")
  }

  @Test func colourTagsAreKeptAndUntaggedStaysUntagged() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let tagged = root.appendingPathComponent("bt601.mp4")
    try VideoClips.make(
      tagged,
      VideoClips.testSource(size: "160x120")
        + [
          "-c:v", "libx264", "-colorspace", "smpte170m", "-color_primaries", "smpte170m",
          "-color_trc", "smpte170m", "-color_range", "tv",
        ])
    let untagged = root.appendingPathComponent("untagged.mp4")
    try VideoClips.make(untagged, VideoClips.testSource(size: "160x120") + ["-c:v", "libx264"])
    for input in [tagged, untagged] {
      let output = root.appendingPathComponent("out-" + input.lastPathComponent)
      let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.5"])
      #expect(result.status == 0, "\(result.standardError)")
      let (was, now) = (
        stream("video", of: try VideoClips.streams(input)),
        stream("video", of: try VideoClips.streams(output))
      )
      for key in ["color_space", "color_primaries", "color_transfer", "color_range"] {
        #expect(now[key] as? String == was[key] as? String, "\(input.lastPathComponent) \(key)")
      }
    }
    #expect(
      stream("video", of: try VideoClips.streams(tagged))["color_space"] as? String == "smpte170m")
  }

  @Test func hevcStaysHEVC() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in.mp4")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "160x120", seconds: 0.4)
        + ["-c:v", "libx265", "-x265-params", "log-level=error"])
    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.5"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(stream("video", of: try VideoClips.streams(output))["codec_name"] as? String == "hevc")
    #expect(try VideoClips.frameTimes(output) == (try VideoClips.frameTimes(input)))
  }

  @Test func badInputsAreRefusedWithNothingWritten() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let notVideo = root.appendingPathComponent("notes.mp4")
    try Data("not a video at all\n".utf8).write(to: notVideo)
    // A clip cut short before its index: FFmpeg's own words end the one line.
    let whole = root.appendingPathComponent("whole.mp4")
    try VideoClips.make(whole, VideoClips.testSource(size: "160x120", seconds: 0.5))
    let cut = root.appendingPathComponent("cut.mp4")
    try Data(try Data(contentsOf: whole).prefix(2000)).write(to: cut)
    // FFmpeg reads a photo as a one-frame stream; `video` says to use `apply` instead.
    let photo = URL(fileURLWithPath: CLIRunner.sample("rocket.jpg"))
    let png = URL(fileURLWithPath: CLIRunner.sample("coffee.png"))
    let cases: [(URL, String)] = [
      (notVideo, "notes.mp4: cannot be read as video: Invalid data found when processing input"),
      (photo, "rocket.jpg: a still image (mjpeg), not a video; render stills with framedial apply"),
      (png, "coffee.png: a still image (png), not a video; render stills with framedial apply"),
      (
        cut,
        "cut.mp4: cannot be read as video: Invalid data found when processing input "
          + "(FFmpeg (mov,mp4,m4a,3gp,3g2,mj2): moov atom not found)"
      ),
    ]
    let outputs = root.appendingPathComponent("out")
    for (input, message) in cases {
      let output = outputs.appendingPathComponent("out.mp4")
      let result = try CLIRunner.run(["video", input.path, "-o", output.path])
      #expect(result.status == 1)
      #expect(result.standardError.contains(message), "\(result.standardError)")
      // Every line names the command, FFmpeg's own lines included.
      for line in result.standardError.split(separator: "\n") {
        #expect(line.hasPrefix("framedial video: "), "\(line)")
      }
      #expect(!FileManager.default.fileExists(atPath: output.path))
    }
    #expect(files(in: outputs).isEmpty)
  }

  @Test func namesAreAlwaysLocalFilesAndPlaylistsCannotReachTheNetwork() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // A colon in a name is part of the name, not a protocol, going in and coming out.
    let odd = root.appendingPathComponent("take:2.mp4")
    try VideoClips.make(odd, VideoClips.testSource(size: "160x120", seconds: 0.2))
    let written = root.appendingPathComponent("http:out.mp4")
    let result = try CLIRunner.run(["video", odd.path, "-o", written.path, "--set", "ev=0.5"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try VideoClips.streams(written).count == 1)
    // Protocol names are file names: nothing is read from a pipe or a server.
    let piped = try CLIRunner.run([
      "video", "pipe:0", "-o", root.appendingPathComponent("p.mp4").path,
    ])
    #expect(piped.status == 1)
    #expect(
      piped.standardError.contains("pipe:0: cannot be read as video: No such file or directory"))
    // A playlist naming a segment on a server never fetches it.
    let playlist = root.appendingPathComponent("list.m3u8")
    try Data(
      "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nhttp://127.0.0.1:9/seg.ts\n#EXT-X-ENDLIST\n"
        .utf8
    ).write(to: playlist)
    let fetched = try CLIRunner.run([
      "video", playlist.path, "-o", root.appendingPathComponent("l.mp4").path,
    ])
    #expect(fetched.status == 1)
    #expect(
      fetched.standardError.contains("Protocol 'http' not on whitelist 'file'"),
      "\(fetched.standardError)")
    #expect(files(in: root).filter { $0.hasSuffix(".mp4") } == ["http:out.mp4", "take:2.mp4"])
  }

  @Test func anOutputThatIsTheInputThroughAHardLinkOrALinkIsRefusedAndLeftAlone() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in.mp4")
    try VideoClips.make(
      input, VideoClips.testSource(seconds: 0.2) + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
    let original = try Data(contentsOf: input)
    let hardLink = root.appendingPathComponent("hard.mp4")
    let symbolicLink = root.appendingPathComponent("soft.mp4")
    try FileManager.default.linkItem(at: input, to: hardLink)
    try FileManager.default.createSymbolicLink(at: symbolicLink, withDestinationURL: input)
    for output in [input, hardLink, symbolicLink] {
      let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=1"])
      #expect(result.status == 1)
      #expect(result.standardError.contains("refusing to write onto the input file"))
    }
    #expect(try Data(contentsOf: input) == original)
    #expect(files(in: root) == ["hard.mp4", "in.mp4", "soft.mp4"])
  }

  @Test func wrongOptionsAreUsageErrors() throws {
    let cases: [([String], String)] = [
      (["--encoder-preset", "quick"], "--encoder-preset must be one of ultrafast"),
      (["--crf", "60"], "--crf must be a whole number 0 … 51, not '60'"),
      (["--codec", "av1"], "--codec must be h264 or hevc, not 'av1'"),
    ]
    for (extra, message) in cases {
      let result = try CLIRunner.run(["video", "in.mp4", "-o", "out.mp4"] + extra)
      #expect(result.status == 2)
      #expect(result.standardError.contains(message), "\(result.standardError)")
    }
    let help = try CLIRunner.run(["video", "--help"])
    #expect(help.status == 0 && help.standardOutput.contains("--encoder-preset P"))
  }

  @Test func onlyContainersWrittenWholeAreAcceptedBeforeAnyWork() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let clip = root.appendingPathComponent("in.mp4")
    try VideoClips.make(clip, VideoClips.testSource(size: "160x120", seconds: 0.2))
    let outputs = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
    // An image sequence, a playlist that writes segments of its own, a container without H.264.
    let cases: [(String, String)] = [
      ("still.png", "names an image, not a video: write one frame as a still with --frame-at T"),
      ("live.m3u8", "FFmpeg's hls container is not one FrameDial writes"),
      ("clip.webm", "FFmpeg's webm container is not one FrameDial writes"),
      ("clip.xyz", "FFmpeg writes no video container for this name's extension"),
    ]
    for (name, message) in cases {
      let result = try CLIRunner.run(
        ["video", clip.path, "-o", outputs.appendingPathComponent(name).path],
        in: outputs)
      #expect(result.status == 2, "\(name): \(result.standardError)")
      #expect(result.standardError.contains(message), "\(result.standardError)")
    }
    // Nothing was written, beside the outputs or in the working folder.
    #expect(files(in: outputs).isEmpty)
    let written = try CLIRunner.run(
      ["video", clip.path, "-o", outputs.appendingPathComponent("clip.ts").path], in: outputs)
    #expect(written.status == 0, "\(written.standardError)")
    #expect(files(in: outputs) == ["clip.ts"])
  }

  @Test func anInterruptedRunLeavesNothing() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("long.mp4")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "640x480", seconds: 20)
        + ["-c:v", "libx264", "-preset", "ultrafast"])
    let folder = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let errors = root.appendingPathComponent("errors")
    let process = try ShellStartedProcess(
      [
        "video", input.path, "-o", folder.appendingPathComponent("out.mp4").path, "--set", "ev=1",
        "--encoder-preset", "slow",
      ],
      errors: errors.path)
    let deadline = Date().addingTimeInterval(60)
    while files(in: folder).isEmpty && process.isRunning && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.01)
    }
    let started = process.isRunning
    process.send(SIGINT)
    let ending = process.wait()
    let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    #expect(started, "it ended before writing: \(message)")
    #expect(ending == .exited(130), "\(message)")
    #expect(message.contains("framedial video: stopped by SIGINT"), "\(message)")
    #expect(files(in: folder).isEmpty)
  }
}
