import Foundation
import TestSupport
import Testing
import Video

@testable import FrameDialCLI
@testable import FrameDialFullCLI

/// ``VideoPlanarConversion``, FrameDial's own YUV 4:2:0 conversion that `framedial studio` plays 8-bit
/// 4:2:0 videos with (``Video/VideoTranscoder/play(choose:show:)``): the frames it plays are those
/// `video --frame-at` takes with libswscale, in each stream's matrix and range.
@Suite struct VideoPlanarConversionTests {
  /// The packed RGB of the first frame of `clip` as `studio` plays it (FrameDial's planar conversion
  /// for 8-bit 4:2:0) and as `video --frame-at 0` takes it (libswscale).
  func firstFramePlayedAndTaken(_ clip: URL) throws -> (played: [UInt8], taken: [UInt8]) {
    let player = try VideoTranscoder(path: clip.path)
    player.planarConversion = VideoPlanarConversion.make
    var played: [UInt8] = []
    _ = try player.play(
      choose: { _ in played.isEmpty ? .show : .stop }, show: { played = Array($0.input) })
    var taken: [UInt8] = []
    try VideoTranscoder(path: clip.path).frame(at: 0) { taken = Array($0.input) }
    return (played, taken)
  }

  func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    #expect(a.count == b.count && !a.isEmpty)
    return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, a.count))
  }

  @Test func playedFramesFollowTheStreamsMatrixAndRangeAsStillsDo() throws {
    let root = try CLIRunner.scratchFolder("video-playback-colour")
    defer { try? FileManager.default.removeItem(at: root) }
    let tags: [(String, [String])] = [
      ("bt601", ["-colorspace", "smpte170m", "-color_range", "tv"]),
      ("bt709", ["-colorspace", "bt709", "-color_range", "tv"]),
      ("bt709-full", ["-colorspace", "bt709", "-color_range", "pc"]),
    ]
    var played: [String: [UInt8]] = [:]
    for (name, tag) in tags {
      let clip = root.appendingPathComponent("\(name).mkv")
      // The same coded pixels each time, tagged three ways.
      try VideoClips.make(
        clip,
        VideoClips.testSource(size: "320x240", seconds: 0.2)
          + ["-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"] + tag)
      let frame = try firstFramePlayedAndTaken(clip)
      #expect(meanDifference(frame.played, frame.taken) < 0.5, "\(name)")
      played[name] = frame.played
    }
    // Each tag changes the colours the way it says: another matrix, another range.
    let (bt601, bt709, full) = (
      played["bt601"] ?? [], played["bt709"] ?? [], played["bt709-full"] ?? []
    )
    #expect(meanDifference(bt601, bt709) > 5)
    #expect(meanDifference(bt709, full) > 5)
  }
}
