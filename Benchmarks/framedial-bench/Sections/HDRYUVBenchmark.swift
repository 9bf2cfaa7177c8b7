import Controls
import Foundation
import FrameDial
import Measurement
import RowKernels
import Video
import Vips

/// One way of rendering a 10-bit HLG frame: wall and CPU milliseconds per frame.
struct HDRYUVResult: Sendable, Codable {
  /// What the row measures (see ``HDRYUVBenchmark/Case``).
  var role: String
  /// Wall milliseconds per frame.
  var milliseconds: Summary
  /// CPU milliseconds per frame, every thread's (user and system).
  var cpuMilliseconds: Summary
  /// This median over the memory copy's median in the same run.
  var ratioToCopy: Double
}

/// 1080p yuv420p10le frames, HLG over BT.2020 (TV range; the sample frame made 10-bit Y′CbCr by
/// FrameDial's own conversion), rendered as `video` renders HDR frames: kept HDR (10-bit out) or
/// tone-mapped to 8-bit SDR, in one pass on the frame's planes, against a copy of the frame (the
/// floor) and the unoptimized graph; the cases take turns frame by frame.
struct HDRYUVBenchmark {
  let options: BenchmarkOptions
  let progress: (String) -> Void

  /// One way through a frame.
  enum Case: String, CaseIterable {
    /// The frame's bytes copied: the floor.
    case copy = "memory copy of the 10-bit frame"
    /// The colour state in HDR light, 10-bit in and out, one pass.
    case keep = "kept HDR, colour state, one pass"
    /// The same through the unoptimized graph (converted to 16-bit RGB, libvips, converted back).
    case keepUnoptimized = "kept HDR, colour state, unoptimized graph"
    /// No controls, tone-mapped to 8-bit SDR in one pass.
    case sdrPlain = "tone-mapped to SDR, no controls, one pass"
    /// The colour state, then the tone mapping, in one pass.
    case sdr = "tone-mapped to SDR, colour state, one pass"
    /// The same on one thread: the measure of the HDR work a frame costs.
    case sdrOneThread = "tone-mapped to SDR, colour state, one pass, one thread"
  }

  /// Every case, frame by frame in turns, on `frame` made 10-bit HLG, tone-mapped as the HLG clip at
  /// `clip` is (BT.2020, no metadata).
  func run(frame: SampleFrame, clip: String) throws -> [HDRYUVResult] {
    let (width, height) = (frame.width, frame.height)
    let layout = YUV420Layout(width: width, height: height, depth: 10, matrix: .bt2020, range: .tv)
    let sdrLayout = YUV420Layout(width: width, height: height, depth: 8, matrix: .bt709, range: .tv)
    let converter = try YUV420Converter(layout)
    let sdrConverter = try YUV420Converter(sdrLayout)
    let wide = frame.pixels.map { UInt16($0) * 257 }
    let input = try converter.packedYUV(fromRGB: wide.withUnsafeBytes { Array($0) })
    var output = [UInt8](repeating: 0, count: layout.frameBytes)
    let colour = LiveControlState(FrameState.colourState)
    let keep = try YUVFrameRenderer(layout: layout, controls: colour, encoding: .bt2100HLG)
    let unoptimized = try YUVFrameRenderer(layout: layout, controls: colour, encoding: .bt2100HLG)
    unoptimized.renderer.optimized = false
    let plain = try YUVFrameRenderer(
      layout: layout, controls: LiveControlState(ControlState()), encoding: .bt2100HLG)
    // A renderer splits its frames over libvips's threads as they are when it is made.
    let single: YUVFrameRenderer
    do {
      try Vips.setThreads(1)
      defer { try? Vips.setThreads(ProcessInfo.processInfo.activeProcessorCount) }
      single = try YUVFrameRenderer(layout: layout, controls: colour, encoding: .bt2100HLG)
    }
    let toneMapper = try VideoTranscoder(path: clip).rgbToneMapper(width: width, height: height)
    func render(_ which: Case) throws {
      try input.withUnsafeBytes { source in
        try output.withUnsafeMutableBytes { target in
          switch which {
          case .copy:
            target.copyMemory(from: source)
          case .keep:
            try keep.render(source, into: target)
          case .keepUnoptimized:
            try unoptimized.render(source, into: target)
          case .sdrPlain, .sdr, .sdrOneThread:
            guard let from = source.baseAddress, let to = target.baseAddress else { return }
            let planes = sdrConverter.planes(of: to)
            let renderer = which == .sdr ? keep : which == .sdrOneThread ? single : plain
            _ = try renderer.renderOnePass(
              converter.planes(of: from),
              into: planes.map { UnsafeMutableRawPointer(mutating: $0.base) },
              strides: planes.map(\.stride), then: toneMapper, outputLayout: sdrLayout)
          }
        }
      }
    }
    let cases = Case.allCases
    var wall = [[Double]](repeating: [], count: cases.count)
    var cpu = [[Double]](repeating: [], count: cases.count)
    progress("hdr: 1080p yuv420p10le HLG frames, kept and tone-mapped")
    for index in 0..<(options.warmupFrames + options.frames) {
      for turn in 0..<cases.count {
        let which = (index + turn) % cases.count
        let before = Timing.processCPUSeconds()
        let seconds = try Timing.measure { try render(cases[which]) }
        let used = Timing.processCPUSeconds() - before
        if index >= options.warmupFrames {
          wall[which].append(seconds * 1000)
          cpu[which].append(used * 1000)
        }
      }
    }
    let summaries = try zip(wall, cpu).map { (times, used) throws -> (Summary, Summary) in
      guard let time = Summary(times), let load = Summary(used) else {
        throw VipsError("no HDR frames were timed")
      }
      return (time, load)
    }
    let floor = summaries[0].0.median
    return zip(cases, summaries).map { which, summary in
      HDRYUVResult(
        role: which.rawValue, milliseconds: summary.0, cpuMilliseconds: summary.1,
        ratioToCopy: summary.0.median / floor)
    }
  }
}
