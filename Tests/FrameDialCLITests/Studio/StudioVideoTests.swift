import Foundation
import Studio
import TestSupport
import Testing
import Vips

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial studio VIDEO`: the video plays (decoded in process, looping) with live controls, as
/// the player shows it (rotation, square pixels, 10-bit input), and a bad video is named.
@Suite struct StudioVideoTests {
  /// A clip of `seconds` made with ffmpeg in a scratch folder, from lavfi `source` and `arguments`.
  func clip(
    _ name: String, source: String, _ arguments: [String] = ["-c:v", "libx264"],
    in root: URL
  ) throws -> URL {
    let url = root.appendingPathComponent(name)
    try VideoClips.make(url, ["-f", "lavfi", "-i", source, "-pix_fmt", "yuv420p"] + arguments)
    return url
  }

  /// The mean of every sample of `/frame.jpg`, and the frame.
  func frame(_ studio: StudioClient) throws -> (mean: Double, image: Image) {
    let response = try studio.request("GET", "/frame.jpg")
    #expect(response.status == 200)
    #expect(response.headers["content-type"] == "image/jpeg")
    let image = try Image(bytes: response.body)
    return (try image.average(), image)
  }

  @Test func framesFollowTheClipOverTimeAndLoopAtItsEnd() throws {
    let root = try CLIRunner.scratchFolder("studio-video-ramp")
    defer { try? FileManager.default.removeItem(at: root) }
    // Grey rising from 20 to 240 over 1.5 s: each moment of the clip has its own brightness.
    let ramp = try clip(
      "ramp.mp4",
      source: "color=c=gray:s=320x240:r=25:d=1.5,geq=lum='20+T*146':cb=128:cr=128",
      in: root)
    let studio = try StudioClient([ramp.path])
    var means: [Double] = []
    var sawBright = false
    var sawDarkAfterBright = false
    // Polled until the picture has been seen bright and then dark again (the loop), within a deadline
    // that a loaded machine meets; every frame is the viewfinder's size.
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline, !sawDarkAfterBright {
      let (mean, image) = try frame(studio)
      #expect(image.width == 320 && image.height == 240 && image.bands == 3)
      means.append(mean)
      if mean > 160 { sawBright = true }
      if sawBright, mean < 90 { sawDarkAfterBright = true }
      usleep(50_000)
    }
    #expect(sawBright, "means \(means)")
    #expect(sawDarkAfterBright, "means \(means)")
    #expect((means.max() ?? 0) - (means.min() ?? 0) > 100, "means \(means)")
    #expect(studio.process.isRunning)
  }

  @Test func theWebSocketSendsNewVideoFramesOneAtATime() throws {
    let root = try CLIRunner.scratchFolder("studio-video-live")
    defer { try? FileManager.default.removeItem(at: root) }
    let moving = try clip(
      "moving.mp4", source: "testsrc2=size=320x240:rate=25:duration=2", in: root)
    let studio = try StudioClient([moving.path])
    let live = try studio.live()
    let first = try #require(nextBinary(live, timeout: 10))
    // One frame in flight: the video goes on, but nothing more comes before the page says "decoded".
    #expect(nextBinary(live, timeout: 0.5) == nil)
    try live.send(#"{"type":"decoded"}"#)
    let second = try #require(nextBinary(live, timeout: 10))
    #expect(second != first)
    // Every frame is the same state's (no change was made), yet each new one is sent.
    try live.send(#"{"type":"decoded"}"#)
    let third = try #require(nextBinary(live, timeout: 10))
    #expect(third != second)
    #expect(try Image(bytes: third).width == 320)
  }

  @Test func exposurePlusOneMakesTheVideoFrameBrighter() throws {
    let root = try CLIRunner.scratchFolder("studio-video-exposure")
    defer { try? FileManager.default.removeItem(at: root) }
    let grey = try clip("grey.mp4", source: "color=c=0x505050:s=320x240:r=25:d=1", in: root)
    let studio = try StudioClient([grey.path])
    let before = try frame(studio).mean
    let posted = try studio.request("POST", "/state", body: Data(#"{"exposureBias": 1}"#.utf8))
    #expect(posted.status == 200)
    // `/frame.jpg` answers with a frame of the new state (or a newer one).
    let after = try frame(studio).mean
    #expect(abs(before - 80) < 6, "mean \(before)")
    #expect(after > before + 25, "mean \(before) → \(after)")
  }

  /// The next binary message (a frame) `live` receives within `timeout` seconds, text messages
  /// skipped; nil when none came.
  func nextBinary(_ live: LiveClient, timeout: TimeInterval) -> Data? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while deadline.timeIntervalSinceNow > 0 {
      guard let message = try? live.receive(timeout: deadline.timeIntervalSinceNow) else {
        return nil
      }
      if case .binary(let data) = message { return data }
    }
    return nil
  }

  /// The mean absolute difference of two 8-bit images' samples (same size and bands).
  func meanDifference(_ a: Image, _ b: Image) throws -> Double {
    let (x, y) = (try a.pixelBytes(), try b.pixelBytes())
    #expect(x.count == y.count)
    let total = zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(total) / Double(max(1, x.count))
  }

  /// The still `framedial video --frame-at 0` writes of `clip`: the frame as a player shows it.
  func stillOfFirstFrame(_ clip: URL, in root: URL) throws -> Image {
    let still = root.appendingPathComponent("still.png")
    let result = try CLIRunner.run(["video", clip.path, "--frame-at", "0", "-o", still.path])
    #expect(result.status == 0, "\(result.standardError)")
    return try Image(bytes: try Data(contentsOf: still))
  }

  @Test func aRotatedClipShowsUprightWithItsDimensionsTurned() throws {
    let root = try CLIRunner.scratchFolder("studio-video-rotated")
    defer { try? FileManager.default.removeItem(at: root) }
    // One frame: the picture stays, so it can be compared with the still of that frame.
    let plain = try clip(
      "plain.mp4", source: "testsrc2=size=320x240:rate=25:duration=1",
      ["-frames:v", "1", "-c:v", "libx264"], in: root)
    // FFmpeg 5.1 turns the rotate tag into a display matrix when it copies the stream.
    let rotated = root.appendingPathComponent("rotated.mp4")
    try VideoClips.make(rotated, ["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    let studio = try StudioClient([rotated.path])
    let image = try frame(studio).image
    #expect(image.width == 240 && image.height == 320)
    // Turned the way `video --frame-at` turns it (a turn the other way differs by far more).
    let still = try stillOfFirstFrame(rotated, in: root)
    #expect(still.width == 240 && still.height == 320)
    let difference = try meanDifference(image, still)
    let flipped = try meanDifference(image, try still.settingOrientation(3).autoRotated())
    #expect(difference < 4, "mean difference \(difference)")
    #expect(flipped > 20, "mean difference from the other turn \(flipped)")
    let configuration = try studio.request("GET", "/studio.json")
    let json = try JSONSerialization.jsonObject(with: configuration.body) as? [String: Any]
    let size = json?["frame"] as? [String: Any]
    #expect(size?["width"] as? Int == 240 && size?["height"] as? Int == 320)
  }

  @Test func nonSquarePixelsAreShownSquare() throws {
    let root = try CLIRunner.scratchFolder("studio-video-sar")
    defer { try? FileManager.default.removeItem(at: root) }
    // 200×240 coded, pixels twice as wide as high: a player shows 400×240.
    let wide = try clip(
      "wide.mp4", source: "testsrc2=size=200x240:rate=25:duration=1",
      ["-vf", "setsar=2", "-frames:v", "1", "-c:v", "libx264"], in: root)
    let studio = try StudioClient([wide.path])
    let image = try frame(studio).image
    #expect(image.width == 400 && image.height == 240)
    let difference = try meanDifference(image, try stillOfFirstFrame(wide, in: root))
    #expect(difference < 4, "mean difference \(difference)")
  }

  @Test func tenBitVideoPlaysWithTheLevelsOfItsEightBitTwin() throws {
    let root = try CLIRunner.scratchFolder("studio-video-10bit")
    defer { try? FileManager.default.removeItem(at: root) }
    let source = "color=c=0x606060:s=320x240:r=25:d=1"
    let eight = try clip("eight.mkv", source: source, ["-c:v", "ffv1"], in: root)
    let ten = try clip(
      "ten.mkv", source: source, ["-vf", "format=yuv420p10le", "-c:v", "ffv1"], in: root)
    let meanEight = try frame(try StudioClient([eight.path])).mean
    let meanTen = try frame(try StudioClient([ten.path])).mean
    #expect(abs(meanEight - 96) < 4, "mean \(meanEight)")
    #expect(abs(meanTen - meanEight) < 2, "8-bit \(meanEight), 10-bit \(meanTen)")
  }

  @Test func ctrlCStopsAPlayingVideoWithExitZero() throws {
    let root = try CLIRunner.scratchFolder("studio-video-stop")
    defer { try? FileManager.default.removeItem(at: root) }
    let moving = try clip(
      "moving.mp4", source: "testsrc2=size=320x240:rate=25:duration=2", in: root)
    let studio = try StudioClient([moving.path])
    #expect(try studio.request("GET", "/frame.jpg").status == 200)
    studio.process.send(SIGINT)
    #expect(studio.process.wait() == .exited(0))
    #expect(studio.standardError.contains("stopped by SIGINT"))
  }

  @Test func aVideoUnderAnExtensionOfNoVideoIsRecognisedByItsContent() throws {
    let root = try CLIRunner.scratchFolder("studio-video-content")
    defer { try? FileManager.default.removeItem(at: root) }
    let clip = try clip(
      "clip.flv", source: "testsrc=size=320x240:rate=25", ["-t", "1", "-c:v", "flv1"], in: root)
    let studio = try StudioClient([clip.path])
    let response = try studio.request("GET", "/frame.jpg")
    #expect(response.status == 200)
    #expect(try Image(bytes: response.body).width == 320)
    // Words under an unknown extension are neither: both readings are named.
    let words = root.appendingPathComponent("notes.dat")
    try Data("not a picture, not a video".utf8).write(to: words)
    let result = try CLIRunner.run(["studio", words.path, "--port", "0"])
    #expect(result.status == 1)
    #expect(
      result.standardError.contains(
        "\(words.path): not a known image format, nor a video FFmpeg reads"),
      "\(result.standardError)")
  }

  @Test func aDamagedOrMissingVideoIsNamedWithExitOne() throws {
    let root = try CLIRunner.scratchFolder("studio-video-bad")
    defer { try? FileManager.default.removeItem(at: root) }
    let broken = root.appendingPathComponent("broken.mp4")
    try Data("not a video at all, just some words".utf8).write(to: broken)
    for path in [broken.path, root.appendingPathComponent("missing.mov").path] {
      let result = try CLIRunner.run(["studio", path, "--port", "0"])
      #expect(result.status == 1, "\(result.standardError)")
      #expect(result.standardError.contains("framedial studio: \(path)"), "\(result.standardError)")
      #expect(result.standardOutput.isEmpty)
    }
  }
}
