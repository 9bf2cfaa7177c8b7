import Foundation
import TestSupport
import Testing
import Video

/// ``VideoTranscoder/play(choose:show:)``, which `framedial studio` plays videos with: every frame in
/// order as rgb24, frames passed over without being shown, a stop, and each call from the start.
@Suite struct VideoPlaybackTests {
  /// Ten frames at 25 fps whose grey rises by 20 levels a frame (20, 40, … 200), in a file of
  /// extension `container`.
  func rampClip(
    in root: URL, _ arguments: [String] = ["-c:v", "libx264"], container: String = "mkv"
  ) throws -> URL {
    // Named for its arguments: another clip made in the same folder must not overwrite it while a
    // transcoder reads it.
    let name = arguments.joined(separator: "-").filter { $0.isLetter || $0.isNumber || $0 == "-" }
    let url = root.appendingPathComponent("ramp-\(name).\(container)")
    try VideoClips.make(
      url,
      [
        "-f", "lavfi", "-i",
        "color=c=gray:s=64x48:r=25:d=0.4,geq=lum='20+N*20':cb=128:cr=128",
      ] + arguments)
    return url
  }

  /// The first sample of each frame shown and the frame's time in milliseconds.
  struct Shown: Equatable {
    var red: UInt8
    var milliseconds: Int
  }

  func pass(
    _ transcoder: VideoTranscoder,
    choose: (Double) -> VideoTranscoder.PlaybackChoice = { _ in .show }
  ) throws -> (ended: Bool, shown: [Shown]) {
    var shown: [Shown] = []
    let ended = try transcoder.play(
      choose: choose,
      show: { frame in
        #expect(frame.input.count == 64 * 48 * 3)
        shown.append(Shown(red: frame.input[0], milliseconds: Int((frame.time * 1000).rounded())))
      })
    return (ended, shown)
  }

  @Test func everyFrameComesInOrderAndASecondPassStartsAgain() throws {
    let root = try CLIRunner.scratchFolder("video-playback")
    defer { try? FileManager.default.removeItem(at: root) }
    let transcoder = try VideoTranscoder(path: try rampClip(in: root).path)
    let first = try pass(transcoder)
    #expect(first.ended)
    #expect(first.shown.map(\.milliseconds) == Array(stride(from: 0, to: 400, by: 40)))
    let reds = first.shown.map { Int($0.red) }
    // TV range: luma code Y is (Y − 16) × 255 / 219 in RGB.
    let expected = stride(from: 20.0, through: 200, by: 20).map {
      Int((($0 - 16) * 255 / 219).rounded())
    }
    #expect(zip(reds, expected).allSatisfy { abs($0 - $1) <= 2 }, "\(reds) against \(expected)")
    #expect(try pass(transcoder).shown == first.shown)
  }

  /// Containers seek back differently: MPEG-TS timestamps start late (a seek to the video's first
  /// timestamp lands past its key frame), Y4M seeks one stream only.
  @Test(arguments: [
    ("mp4", ["-c:v", "libx264"]), ("mov", ["-c:v", "libx264"]), ("ts", ["-c:v", "libx264"]),
    ("webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime"]), ("y4m", []),
    ("avi", ["-c:v", "mpeg4"]),
  ])
  func everyContainerPlaysAgainFromItsFirstFrame(container: String, codec: [String]) throws {
    let root = try CLIRunner.scratchFolder("video-playback-\(container)")
    defer { try? FileManager.default.removeItem(at: root) }
    let clip = try rampClip(in: root, ["-pix_fmt", "yuv420p"] + codec, container: container)
    let transcoder = try VideoTranscoder(path: clip.path)
    let stopped = try pass(transcoder) { time in time > 0.05 ? .stop : .show }
    #expect(stopped.shown.count == 2)
    let whole = try pass(transcoder)
    #expect(whole.ended)
    #expect(whole.shown.map(\.milliseconds) == Array(stride(from: 0, to: 400, by: 40)))
    #expect(try pass(transcoder).shown == whole.shown)
  }

  @Test func framesPassedOverAreNotShownAndAStopEndsThePass() throws {
    let root = try CLIRunner.scratchFolder("video-playback-skip")
    defer { try? FileManager.default.removeItem(at: root) }
    let transcoder = try VideoTranscoder(path: try rampClip(in: root).path)
    let everyOther = try pass(transcoder) { time in
      Int((time * 25).rounded()) % 2 == 0 ? .show : .skip
    }
    #expect(everyOther.ended)
    #expect(everyOther.shown.map(\.milliseconds) == [0, 80, 160, 240, 320])
    let stopped = try pass(transcoder) { time in time > 0.1 ? .stop : .show }
    #expect(!stopped.ended)
    #expect(stopped.shown.map(\.milliseconds) == [0, 40, 80])
    #expect(try pass(transcoder).shown.count == 10)
  }

  @Test func tenBitFramesComeAsEightBitRGB() throws {
    let root = try CLIRunner.scratchFolder("video-playback-10bit")
    defer { try? FileManager.default.removeItem(at: root) }
    let eight = try VideoTranscoder(
      path: try rampClip(in: root, ["-pix_fmt", "yuv420p", "-c:v", "ffv1"]).path)
    let ten = try VideoTranscoder(
      path: try rampClip(in: root, ["-vf", "format=yuv420p10le", "-c:v", "ffv1"]).path)
    #expect(ten.source.bitDepth == 10)
    let (eightShown, tenShown) = (try pass(eight).shown, try pass(ten).shown)
    #expect(tenShown.count == 10)
    #expect(zip(eightShown, tenShown).allSatisfy { abs(Int($0.red) - Int($1.red)) <= 1 })
  }

  /// Played as planes, an HLG clip's 10-bit 4:2:0 frames come as their decoded planes (no RGB), in
  /// order; an SDR clip's 10-bit frames still come as RGB.
  @Test func hdrFramesCanComeAsTheirDecodedPlanes() throws {
    let root = try CLIRunner.scratchFolder("video-playback-planes")
    defer { try? FileManager.default.removeItem(at: root) }
    let tenBit = ["-vf", "format=yuv420p10le", "-c:v", "ffv1"]
    let hlg = try VideoTranscoder(
      path: try rampClip(
        in: root,
        tenBit + [
          "-color_trc", "arib-std-b67", "-color_primaries", "bt2020", "-colorspace", "bt2020nc",
        ]
      ).path)
    #expect(hlg.source.dynamicRange.isHDR)
    hlg.playsPlanes = true
    var lumas: [Int] = []
    _ = try hlg.play(
      choose: { _ in .show },
      show: { frame in
        #expect(frame.input.isEmpty)
        guard let decoded = frame.planes else {
          Issue.record("an HLG frame came without its planes")
          return
        }
        #expect(decoded.format.width == 64 && decoded.format.height == 48)
        #expect(decoded.format.depth == 10 && decoded.format.matrix == .bt2020)
        #expect(decoded.planes.count == 3)
        #expect(decoded.strides[0] >= 64 * 2 && decoded.strides[1] >= 32 * 2)
        lumas.append(Int(decoded.planes[0].load(as: UInt16.self)))
      })
    // The ramp's grey (20, 40, … 200 at 8 bits) as 10-bit luma codes.
    let expected = Array(stride(from: 80, through: 800, by: 80))
    #expect(lumas.count == 10)
    #expect(zip(lumas, expected).allSatisfy { abs($0 - $1) <= 4 }, "\(lumas)")
    let sdr = try VideoTranscoder(path: try rampClip(in: root, tenBit).path)
    sdr.playsPlanes = true
    let shown = try pass(sdr).shown
    #expect(shown.count == 10)
  }
}
