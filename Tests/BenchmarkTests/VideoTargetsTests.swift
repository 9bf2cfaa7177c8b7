import Testing

@testable import framedial_bench

@Suite struct VideoTargetsTests {
  /// A row of `which` on `clip` whose rounds took `seconds`.
  func row(_ which: VideoBenchmark.Case, on clip: VideoBenchmark.Clip, _ seconds: [Double])
    -> VideoResult
  {
    VideoResult(
      role: VideoBenchmark.role(which, on: clip), frames: 50, seconds: seconds[0],
      framesPerSecond: 50 / seconds[0], runs: seconds.count, runSeconds: seconds,
      method: VideoBenchmark.method(which, binary: "framedial"))
  }

  @Test func thePatternClipsRowsAreNamedApart() {
    #expect(VideoBenchmark.role(.hdrSDR, on: .hlgPan) == "HLG: framedial --hdr sdr")
    #expect(VideoBenchmark.role(.hdrSDR, on: .hlgPattern) == "HLG testsrc2: framedial --hdr sdr")
    #expect(VideoBenchmark.role(.colour, on: .pan) == "framedial video, medium")
    #expect(VideoBenchmark.Case.hdrKeep.clips == [.hlgPan, .hlgPattern])
    #expect(VideoBenchmark.Case.floor.clips == [.pan])
  }

  @Test func eachHLGClipGetsItsOwnTargetsFromItsOwnRounds() throws {
    let video = [
      row(.hdrToneMapFloor, on: .hlgPan, [10, 12, 20]),
      row(.hdrSDR, on: .hlgPan, [9, 6, 10]),
      row(.hdrToneMapFloor, on: .hlgPattern, [5, 4, 6]),
      row(.hdrSDR, on: .hlgPattern, [3, 3.2, 3]),
      row(.hdrKeepFloor, on: .hlgPattern, [8, 8, 8]),
      row(.hdrKeep, on: .hlgPattern, [9.2, 8, 9.6]),
    ]
    let comparisons = Targets.videoComparisons(video)
    // Ratios by round, then the median: pan 0.9, 0.5, 0.5; pattern 0.6, 0.8, 0.5 and 1.15, 1, 1.2.
    #expect(
      comparisons.map(\.role) == [
        "HLG: framedial --hdr sdr", "HLG testsrc2: framedial --hdr keep",
        "HLG testsrc2: framedial --hdr sdr",
      ])
    let measured = comparisons.map(\.target.measured)
    #expect(abs(measured[0] - 0.5) < 1e-12)
    #expect(abs(measured[1] - 1.15) < 1e-12)
    #expect(abs(measured[2] - 0.6) < 1e-12)
    #expect(comparisons[0].target.name.hasPrefix("video 1080p HLG to SDR"))
    #expect(comparisons[2].target.name.hasPrefix("video 1080p HLG testsrc2 to SDR"))
    #expect(comparisons.map(\.target.mark) == ["✓", "✗", "✓"])
  }

  /// The SDR floor is reported against the zscale chain of its own clip, from its own rounds, and is
  /// context, not a target; each floor encodes its own kind of picture.
  @Test func theSDRFloorIsMeasuredAgainstTheChainOfItsClip() {
    let video = [
      row(.hdrToneMapFloor, on: .hlgPan, [10, 12, 20]),
      row(.hdrSDRFloor, on: .hlgPan, [6, 3, 8]),
      row(.hdrToneMapFloor, on: .hlgPattern, [5, 4, 6]),
      row(.hdrSDRFloor, on: .hlgPattern, [2.5, 2.4, 2.7]),
    ]
    // Ratios by round: pan 0.6, 0.25, 0.4 (median 0.4); pattern 0.5, 0.6, 0.45 (median 0.5).
    let pan = Targets.hdrSDRFloorOverToneMap(video, on: .hlgPan) ?? .nan
    let pattern = Targets.hdrSDRFloorOverToneMap(video, on: .hlgPattern) ?? .nan
    #expect(abs(pan - 0.4) < 1e-12)
    #expect(abs(pattern - 0.5) < 1e-12)
    #expect(Targets.videoComparisons(video).isEmpty)
    #expect(VideoBenchmark.Case.hdrSDRFloor.picture == .sdr)
    #expect(VideoBenchmark.Case.hdrKeepFloor.picture == .kept)
    #expect(VideoBenchmark.Case.hdrSDR.picture == nil)
    #expect(VideoBenchmark.Picture.sdr.frameBytes == 1920 * 1080 * 3 / 2)
    #expect(VideoBenchmark.method(.hdrSDRFloor, binary: "framedial").contains("-i PICTURE"))
    #expect(VideoBenchmark.sdrPictureMethod(binary: "framedial").contains("--crf 0"))
  }
}
