import Controls
import Foundation
import FrameDial
import Measurement
import RowKernels
import Vips

/// YUV frames at 1080p in the colour state: the YUV renderer's time against the RGB renderer's
/// (interleaved, median of each), and whole ffmpeg → `framedial frames` → ffmpeg pipes, decode of an
/// H.264 clip to encode with `-preset ultrafast`: `--y4m` against today's rgb24 pipe (ffmpeg
/// converting on both sides), taking turns (each round in the other order than the last), their
/// ratio the median of the rounds' ratios.
struct YUVBenchmark {
  /// The YUV render's median over the RGB render's.
  static let renderRatioLimit = 1.3
  /// The `--y4m` pipe's frames per second over the rgb24 pipe's.
  static let pipeSpeedupLimit = 1.5

  let options: BenchmarkOptions
  let progress: (String) -> Void

  /// Median render milliseconds of `frames` 1080p frames on each renderer.
  func renderTimes(_ frame: SampleFrame, frames: Int) throws -> (yuv: Double, rgb: Double) {
    let layout = YUV420Layout(
      width: frame.width, height: frame.height, depth: 8, matrix: .bt709, range: .tv)
    let live = LiveControlState(FrameState.colourState)
    let yuvRenderer = try YUVFrameRenderer(layout: layout, controls: live)
    let rgbRenderer = try FrameRenderer(
      width: frame.width, height: frame.height, pixelFormat: .rgb24, controls: live)
    let converter = try YUV420Converter(layout, threads: Vips.configuration?.threads)
    var yuv = [UInt8](repeating: 0, count: layout.frameBytes)
    frame.pixels.withUnsafeBytes { source in
      yuv.withUnsafeMutableBytes { target in
        guard let base = source.baseAddress, let out = target.baseAddress else { return }
        let planes = converter.planes(of: out)
        converter.fromRGB(
          base, rgbStride: frame.width * 3,
          into: planes.map { UnsafeMutableRawPointer(mutating: $0.base) },
          strides: planes.map(\.stride))
      }
    }
    var yuvOut = [UInt8](repeating: 0, count: yuv.count)
    var rgbOut = [UInt8](repeating: 0, count: frame.pixels.count)
    var (yuvTimes, rgbTimes) = ([Double](), [Double]())
    for index in 0..<(frames + 5) {
      let start = ContinuousClock.now
      try yuv.withUnsafeBytes { input in
        try yuvOut.withUnsafeMutableBytes { _ = try yuvRenderer.render(input, into: $0) }
      }
      let middle = ContinuousClock.now
      try frame.pixels.withUnsafeBytes { input in
        try rgbOut.withUnsafeMutableBytes { _ = try rgbRenderer.render(input, into: $0) }
      }
      let end = ContinuousClock.now
      guard index >= 5 else { continue }
      yuvTimes.append(Timing.milliseconds(start.duration(to: middle)))
      rgbTimes.append(Timing.milliseconds(middle.duration(to: end)))
    }
    return (Self.median(yuvTimes), Self.median(rgbTimes))
  }

  /// Frames per second of the two pipes over a 1080p clip of `frames` frames, `rounds` times each
  /// (medians), and the median of the rounds' `--y4m` ÷ rgb24 ratios.
  func pipeRates(frames: Int, rounds: Int) throws -> (y4m: Double, rgb: Double, ratio: Double) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-yuv-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let clip = folder.appendingPathComponent("clip.mp4").path
    try Self.shell(
      "ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=25 -frames:v \(frames) "
        + "-c:v libx264 -preset ultrafast -pix_fmt yuv420p '\(clip)'")
    let framedial = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("framedial").path
    let state = "--set ev=0.5 --set wb=tungsten --set contrast=1.2 --set saturation=1.3"
    let encode = "-c:v libx264 -preset ultrafast -f null -"
    let y4m =
      "ffmpeg -v error -i '\(clip)' -f yuv4mpegpipe - | '\(framedial)' frames --y4m \(state) | "
      + "ffmpeg -v error -f yuv4mpegpipe -i - \(encode)"
    let rgb =
      "ffmpeg -v error -i '\(clip)' -f rawvideo -pix_fmt rgb24 - | '\(framedial)' frames "
      + "--size 1920x1080 \(state) | ffmpeg -v error -f rawvideo -pix_fmt rgb24 -s 1920x1080 "
      + "-i - -pix_fmt yuv420p \(encode)"
    var (y4mRates, rgbRates, ratios) = ([Double](), [Double](), [Double]())
    for round in 1...rounds {
      progress("frames: yuv pipes, round \(round) of \(rounds)")
      var (y4mRate, rgbRate) = (0.0, 0.0)
      if round % 2 == 1 {
        y4mRate = Double(frames) / (try Self.shell(y4m))
        rgbRate = Double(frames) / (try Self.shell(rgb))
      } else {
        rgbRate = Double(frames) / (try Self.shell(rgb))
        y4mRate = Double(frames) / (try Self.shell(y4m))
      }
      y4mRates.append(y4mRate)
      rgbRates.append(rgbRate)
      ratios.append(y4mRate / rgbRate)
    }
    return (Self.median(y4mRates), Self.median(rgbRates), Self.median(ratios))
  }

  /// Runs `command` with bash (failing when any stage fails) and returns its wall-clock seconds.
  @discardableResult
  static func shell(_ command: String) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", "set -o pipefail; " + command]
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw VipsError("the benchmark pipe failed (\(process.terminationStatus)): \(command)")
    }
    return Timing.seconds(start.duration(to: .now))
  }

  static func median(_ values: [Double]) -> Double { Statistics.median(sorted: values.sorted()) }
}

/// The YUV measurements of one run.
struct YUVResult: Sendable, Codable {
  /// Median render milliseconds at 1080p, colour state: YUV frames and rgb24 frames.
  var yuvRenderMilliseconds: Double
  var rgbRenderMilliseconds: Double
  /// Whole-pipe frames per second: `--y4m` and the rgb24 pipe (medians of the rounds).
  var y4mPipeFPS: Double
  var rgbPipeFPS: Double
  /// The median of the rounds' `--y4m` ÷ rgb24 frames per second (the target's measure).
  var pipeRatio: Double
}
