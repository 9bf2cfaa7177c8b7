import Foundation
import TestSupport
import Testing

/// `framedial video` converts yuv420p and yuv420p10le with FrameDial's own conversion, the one
/// `frames --y4m` uses: losslessly encoded (8-bit), the two give the same pixels.
@Suite struct VideoYUVTests {
  @Test(arguments: ["yuv420p", "yuv420p10le"])
  func videoAndTheY4MPipeGiveTheSamePixels(pixelFormat: String) throws {
    let folder = try CLIRunner.scratchFolder("video-yuv")
    let (input, output) = (
      folder.appendingPathComponent("in.mkv"), folder.appendingPathComponent("out.mkv")
    )
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "320x240", seconds: 0.2) + [
        "-vf", "noise=alls=20:allf=t", "-c:v", "libx264", "-qp", "0", "-pix_fmt", pixelFormat,
      ])
    let state = ["--set", "saturation=1.3", "--set", "ev=0.3"]
    let run = try CLIRunner.run(["video", input.path, "-o", output.path, "--crf", "0"] + state)
    #expect(run.status == 0, "\(run.standardError)")
    func y4m(_ url: URL) throws -> Data {
      try VideoClips.runForData(
        "ffmpeg", ["-v", "error", "-i", url.path, "-strict", "-1", "-f", "yuv4mpegpipe", "-"]
      ).output
    }
    let piped = try FramePipe.run(["--y4m"] + state, input: Array(try y4m(input)))
    #expect(piped.status == 0, "\(piped.standardError)")
    let video = Array(try y4m(output))
    #expect(video.count == piped.output.count)
    #expect(video != Array(try y4m(input)))
    if pixelFormat == "yuv420p" {
      // libx264 at CRF 0 is lossless at 8 bits: the same bytes.
      let same = video == piped.output
      #expect(same)
    } else {
      // At 10 bits CRF 0 is not lossless (x264's QP scale starts at -12 there): close, not equal.
      let differences = zip(video, piped.output).map { abs(Int($0) - Int($1)) }
      #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 2)
    }
  }

  /// Frames switch between the one-pass planar render (colour only) and the RGB render (zoom) as a
  /// timeline moves: every frame still matches the y4m pipe's, so frames reaching the RGB render are
  /// converted when they get there, from their own planes.
  @Test func framesSwitchingBetweenThePlanarAndTheRGBRenderMatchThePipe() throws {
    let folder = try CLIRunner.scratchFolder("video-yuv-routes")
    let (input, output) = (
      folder.appendingPathComponent("in.mkv"), folder.appendingPathComponent("out.mkv")
    )
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "320x240", seconds: 0.4) + [
        "-vf", "noise=alls=20:allf=t", "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p",
      ])
    let timeline = folder.appendingPathComponent("zoom.jsonl")
    try Data(
      """
      {"time":0.12,"type":"slide","control":"zoom","value":1.5}
      {"time":0.24,"type":"slide","control":"zoom","value":1}

      """.utf8
    ).write(to: timeline)
    let state = ["--set", "saturation=1.3", "--set", "ev=0.3", "--timeline", timeline.path]
    let run = try CLIRunner.run(["video", input.path, "-o", output.path, "--crf", "0"] + state)
    #expect(run.status == 0, "\(run.standardError)")
    func y4m(_ url: URL) throws -> [UInt8] {
      Array(
        try VideoClips.runForData(
          "ffmpeg", ["-v", "error", "-i", url.path, "-f", "yuv4mpegpipe", "-"]
        ).output)
    }
    let piped = try FramePipe.run(["--y4m"] + state, input: try y4m(input))
    #expect(piped.status == 0, "\(piped.standardError)")
    let video = try y4m(output)
    #expect(video.count == piped.output.count)
    let mismatches = zip(video, piped.output).filter { $0 != $1 }.count
    #expect(mismatches == 0)
    // The timeline took effect: without it (no zoomed frames) at least a frame's worth of bytes differ.
    let unzoomed = try FramePipe.run(["--y4m"] + state.prefix(4), input: try y4m(input))
    let zoomed = zip(video, unzoomed.output).filter { $0 != $1 }.count
    #expect(zoomed > 320 * 240)
  }
}
