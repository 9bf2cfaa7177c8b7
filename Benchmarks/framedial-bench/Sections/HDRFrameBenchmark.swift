import Controls
import FrameDial
import Measurement
import Vips

/// One encoding's 16-bit frame renders: milliseconds per frame and the ratio of its median to sRGB's.
struct HDRFrameResult: Sendable, Codable {
  /// The encoding, e.g. `hlg/bt2020`.
  var encoding: String
  /// The control state's name.
  var state: String
  /// Milliseconds per frame.
  var milliseconds: Summary
  /// This median over the sRGB median of the same state in the same run.
  var ratioToSRGB: Double
}

/// 16-bit frames (rgb48le, 1080p, the sample frame's codes × 257) through the frame renderer in each
/// colour encoding — sRGB, BT.2100 HLG and PQ — for the point-only and colour + mixing states. The
/// encodings take turns frame by frame (each frame in a rotated order), so they share the same
/// background load.
struct HDRFrameBenchmark {
  let options: BenchmarkOptions
  let progress: (String) -> Void

  /// The encodings compared, sRGB first.
  static let encodings: [ColourEncoding] = [.sRGB, .bt2100HLG, .bt2100PQ]

  /// Every encoding for each state, on `frame` made 16-bit.
  func run(frame: SampleFrame) throws -> [HDRFrameResult] {
    let samples = frame.pixels.map { UInt16($0) * 257 }
    let input = samples.withUnsafeBytes { Array($0) }
    var output = [UInt8](repeating: 0, count: input.count)
    var results: [HDRFrameResult] = []
    let states = FrameState.all.filter {
      $0.state == FrameState.pointOnlyState || $0.state == FrameState.colourState
    }
    for state in states {
      progress("hdr: 1080p rgb48le \(state.name) in sRGB, HLG and PQ")
      let renderers = try Self.encodings.map { encoding in
        try FrameRenderer(
          width: frame.width, height: frame.height, pixelFormat: .rgb48,
          controls: LiveControlState(state.state), encoding: encoding)
      }
      var times = [[Double]](repeating: [], count: renderers.count)
      for index in 0..<(options.warmupFrames + options.frames) {
        for turn in 0..<renderers.count {
          let which = (index + turn) % renderers.count
          let seconds = try input.withUnsafeBytes { source in
            try output.withUnsafeMutableBytes { target in
              try Timing.measure { _ = try renderers[which].render(source, into: target) }
            }
          }
          if index >= options.warmupFrames { times[which].append(seconds) }
        }
      }
      let summaries = try times.map { values in
        guard let summary = Summary(values) else { throw VipsError("no frames were timed") }
        return summary.scaled(by: 1000)
      }
      for (encoding, summary) in zip(Self.encodings, summaries) {
        results.append(
          HDRFrameResult(
            encoding: encoding.description, state: state.name, milliseconds: summary,
            ratioToSRGB: summary.median / summaries[0].median))
      }
    }
    return results
  }
}
