import Foundation
import TestSupport
import Testing

/// `framedial video --set wb=auto` across a scene cut: the smoothing of the gains starts afresh.
@Suite struct VideoWhiteBalanceTests {
  /// The mean chroma (U, V) of every video frame of `url`, in order.
  func meanChroma(_ url: URL) throws -> [SIMD2<Double>] {
    let result = try VideoClips.run(
      "ffmpeg",
      [
        "-hide_banner", "-i", url.path, "-vf",
        "signalstats,metadata=print:key=lavfi.signalstats.UAVG,"
          + "metadata=print:key=lavfi.signalstats.VAVG",
        "-f", "null", "-",
      ])
    func values(_ key: String) -> [Double] {
      result.errors.split(separator: "\n").compactMap { line in
        guard let range = line.range(of: key + "=") else { return nil }
        return Double(line[range.upperBound...])
      }
    }
    return zip(values("UAVG"), values("VAVG")).map { SIMD2($0, $1) }
  }

  @Test func autoWhiteBalanceIsBalancedOnTheFirstFrameAfterACut() throws {
    let root = try CLIRunner.scratchFolder("video-awb-cut")
    defer { try? FileManager.default.removeItem(at: root) }
    // One second of a bluish grey, then one of a reddish grey, losslessly coded.
    let input = root.appendingPathComponent("cut.mkv")
    try VideoClips.make(
      input,
      [
        "-filter_complex",
        "color=c=0x6080A0:s=160x120:r=25:d=1[a];color=c=0xA08060:s=160x120:r=25:d=1[b];"
          + "[a][b]concat=n=2:v=1,format=yuv420p[v]",
        "-map", "[v]", "-c:v", "libx264", "-qp", "0",
      ])
    let output = root.appendingPathComponent("balanced.mkv")
    let result = try CLIRunner.run(
      ["video", input.path, "-o", output.path, "--set", "wb=auto", "--crf", "0"])
    #expect(result.status == 0, "\(result.standardError)")
    let chroma = try meanChroma(output)
    try #require(chroma.count == 50)
    let before = try meanChroma(input)
    #expect(abs(before[25].x - before[35].x) < 0.5 && before[25].y > 135, "the input is reddish")
    // Frame 25 is the first of the second scene: already where it settles, and neutral (smoothed
    // from the first scene's gains it was U 101, V 156, and took about ten frames to settle).
    for frame in [0, 24, 25, 35] {
      #expect(abs(chroma[frame].x - 128) < 1.5 && abs(chroma[frame].y - 128) < 1.5, "\(frame)")
    }
    let step = chroma[25] - chroma[35]
    #expect(abs(step.x) < 1 && abs(step.y) < 1, "frame 25 \(chroma[25]), frame 35 \(chroma[35])")
  }
}
