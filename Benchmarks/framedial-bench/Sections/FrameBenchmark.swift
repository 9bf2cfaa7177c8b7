import Controls
import Foundation
import FrameDial
import Measurement
import Vips

/// One frame case's measurements: a state at one size and thread count.
struct FrameResult: Sendable, Codable {
  /// "1080p" or "4K".
  var frame: String
  /// Frame width and height.
  var width: Int
  var height: Int
  /// libvips worker threads.
  var threads: Int
  /// The state's name.
  var state: String
  /// Milliseconds per frame through the optimized plan.
  var optimized: Summary
  /// Milliseconds for one memory pass (memcpy) over the same frame, on the calling thread.
  var memoryPass: Summary
  /// Milliseconds for the memory pass split into one band per thread, `threads` memcpys at once: how the
  /// floor itself scales with threads.
  var memoryPassOnThreads: Summary
  /// Optimized median ÷ memory-pass median.
  var memoryPassRatio: Double
  /// The most `memoryPassRatio` may be.
  var memoryPassLimit: Double
  /// Milliseconds per frame through the unoptimized graph (`optimized = false`), when measured.
  var unoptimized: Summary?
  /// Unoptimized median ÷ optimized median.
  var unoptimizedSpeedup: Double?
  /// The least `unoptimizedSpeedup` required, if any.
  var unoptimizedSpeedupLimit: Double?
  /// Cores other processes kept busy on average while the optimized frames of this state were timed.
  var otherProcessCores: Double
}

/// Times `FrameRenderer.render` frame by frame, against a memcpy of the same frame and the unoptimized
/// graph. One and two libvips threads alternate in blocks of frames, so both see the same background
/// load on a shared machine.
struct FrameBenchmark {
  var options: BenchmarkOptions
  /// Called with a line of progress before each case.
  var progress: (String) -> Void
  /// Frames per block before the thread count switches.
  static let block = 10
  /// The thread counts compared.
  static let threadCounts = [1, 2]

  /// Every state at every size and thread count, ordered by frame, threads and state.
  func run(frames: [SampleFrame]) throws -> [FrameResult] {
    var results: [FrameResult] = []
    for frame in frames {
      let ring = FrameRing(pixels: frame.pixels)
      let memoryPasses = try memoryPassTimes(ring, count: options.frames + options.warmupFrames)
        .mapValues { try summary($0) }
      guard let memoryPass = memoryPasses[1] else { throw VipsError("no memory pass was timed") }
      var byThreads: [Int: [FrameResult]] = [:]
      for state in FrameState.all {
        progress("frames: \(frame.name) \(state.name)")
        let load = BackgroundLoad()
        let optimized = try renderTimes(
          frame, ring, state.state, optimized: true, warmup: options.warmupFrames,
          count: options.frames, block: Self.block)
        let otherCores = load.otherCoresSince()
        var unoptimized: [Int: [Double]] = [:]
        if state.state != .identity {
          progress("frames: \(frame.name) \(state.name), unoptimized")
          unoptimized = try renderTimes(
            frame, ring, state.state, optimized: false, warmup: options.unoptimizedWarmupFrames,
            count: options.unoptimizedFrames, block: 1)
        }
        for threads in Self.threadCounts {
          let fast = try summary(optimized[threads] ?? [])
          let slow = try unoptimized[threads].map { try summary($0) }
          byThreads[threads, default: []].append(
            FrameResult(
              frame: frame.name, width: frame.width, height: frame.height, threads: threads,
              state: state.name, optimized: fast, memoryPass: memoryPass,
              memoryPassOnThreads: memoryPasses[threads] ?? memoryPass,
              memoryPassRatio: fast.median / memoryPass.median,
              memoryPassLimit: state.memoryPassLimit, unoptimized: slow,
              unoptimizedSpeedup: slow.map { $0.median / fast.median },
              unoptimizedSpeedupLimit: state.unoptimizedSpeedupLimit, otherProcessCores: otherCores)
          )
        }
      }
      results += Self.threadCounts.flatMap { byThreads[$0] ?? [] }
    }
    return results
  }

  /// Seconds per frame rendering `state`, by thread count: `warmup` untimed frames at each count, then
  /// `count` timed frames at each, the counts alternating every `block` frames. Frames cycle through
  /// `ring`.
  func renderTimes(
    _ frame: SampleFrame, _ ring: FrameRing, _ state: ControlState, optimized: Bool, warmup: Int,
    count: Int, block: Int
  ) throws -> [Int: [Double]] {
    let renderer = try FrameRenderer(
      width: frame.width, height: frame.height, pixelFormat: .rgb24,
      controls: LiveControlState(state))
    renderer.optimized = optimized
    var frameNumber = 0
    func render(_ frames: Int, threads: Int, into times: inout [Double]) throws {
      try Vips.setThreads(threads)
      for _ in 0..<frames {
        let input = ring.input(frameNumber)
        let output = ring.output(frameNumber)
        frameNumber += 1
        times.append(try Timing.measure { try renderer.render(input, into: output) })
      }
    }
    var discarded: [Double] = []
    for threads in Self.threadCounts { try render(warmup, threads: threads, into: &discarded) }
    var times: [Int: [Double]] = [:]
    var done = 0
    while done < count {
      let frames = min(block, count - done)
      for threads in Self.threadCounts {
        try render(frames, threads: threads, into: &times[threads, default: []])
      }
      done += frames
    }
    return times
  }

  /// Seconds per memcpy of a frame into another buffer, by thread count: the frame split into one band
  /// per thread, copied at once. Thread counts alternate frame by frame, cycling through `ring`; the first
  /// fifth of each is untimed, as warm-up.
  func memoryPassTimes(_ ring: FrameRing, count: Int) -> [Int: [Double]] {
    var times: [Int: [Double]] = [:]
    for index in 0..<count {
      for threads in Self.threadCounts {
        let frame = index * Self.threadCounts.count + threads
        let input = ring.input(frame)
        let output = ring.output(frame)
        guard let source = input.baseAddress, let target = output.baseAddress else { return [:] }
        let frameBytes = input.count
        let bandBytes = (frameBytes + threads - 1) / threads
        let seconds = Timing.measure {
          if threads == 1 {
            _ = memcpy(target, source, input.count)
            return
          }
          let (from, to) = (UInt(bitPattern: source), UInt(bitPattern: target))
          DispatchQueue.concurrentPerform(iterations: threads) { band in
            let start = band * bandBytes
            let bytes = min(bandBytes, frameBytes - start)
            guard bytes > 0, let source = UnsafeRawPointer(bitPattern: from + UInt(start)),
              let target = UnsafeMutableRawPointer(bitPattern: to + UInt(start))
            else { return }
            _ = memcpy(target, source, bytes)
          }
        }
        if index >= count / 5 { times[threads, default: []].append(seconds) }
      }
    }
    blackHole(ring.output(0).last)
    return times
  }

  /// Milliseconds summary of `seconds`.
  private func summary(_ seconds: [Double]) throws -> Summary {
    guard let summary = Summary(seconds) else { throw VipsError("no frames were timed") }
    return summary.scaled(by: 1000)
  }
}
