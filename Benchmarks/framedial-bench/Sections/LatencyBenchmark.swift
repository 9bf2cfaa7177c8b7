import Controls
import Foundation
import FrameDial
import Measurement
import Synchronization
import Vips

/// Slider-to-frame latency while a replayed gesture moves exposure and frames render back to back.
struct LatencyResult: Sendable, Codable {
  /// The frame and state rendered.
  var frame: String
  var state: String
  /// libvips worker threads of the render thread's pipelines.
  var threads: Int
  /// The renderer's restart window (0: every frame finishes with the values it started with).
  var restartWindow: Double
  /// Frames restarted because the controls changed under them.
  var restartedFrames: Int
  /// Slider events set, and their rate per second.
  var events: Int
  var eventsPerSecond: Double
  /// Frames rendered while the gesture ran.
  var frames: Int
  /// Milliseconds from a change to the first frame showing it (or a newer value).
  var latency: Summary
  /// Median milliseconds per frame of the same renders (the frame time latency is compared with).
  var frameTime: Summary
  /// Changes no frame showed before the run ended.
  var unresolved: Int
  /// Changes superseded before any frame used them exactly.
  var superseded: Int
  /// Frames stale for at least one change, and the most frames stale for any single change.
  var staleFrames: Int
  var maxStaleFramesPerChange: Int
  /// Changes for which at least one stale frame completed.
  var changesWithStaleFrames: Int
  /// Cores other processes kept busy on average during the gesture.
  var otherProcessCores: Double
  /// The definitions of latency and staleness.
  var definitions: String
}

/// Runs the render loop on its own thread and the gesture on the calling thread.
struct LatencyBenchmark {
  var options: BenchmarkOptions
  /// Slider events per second.
  static let eventsPerSecond = 120.0
  /// Render threads: one, like every target that states no thread count (the gesture runs on the
  /// other core).
  static let threads = 1

  /// Renderer restart windows measured, in this order: the default (the run the target is checked on),
  /// then restarting off, for comparison.
  static let restartWindows = [FrameRenderer.defaultRestartWindow, 0]

  func run(frame: SampleFrame, restartWindow: Double) throws -> LatencyResult {
    try Vips.setThreads(Self.threads)
    let base = FrameState.colourState
    let controls = LiveControlState(base)
    let log = RenderLog()
    let finished = DispatchSemaphore(value: 0)
    let origin = ContinuousClock.now
    let pixels = frame.pixels
    let (width, height) = (frame.width, frame.height)
    let thread = Thread {
      defer { finished.signal() }
      do {
        try Self.renderLoop(
          pixels: pixels, width: width, height: height, restartWindow: restartWindow,
          controls: controls, log: log, origin: origin)
      } catch {
        log.fail("\(error)")
      }
    }
    thread.name = "framedial-bench render"
    thread.start()
    // Let the renderer warm up on the base state, then replay the gesture: exposure sweeping 0 → +1 EV
    // and back in 0.01 EV steps, one step every 1/120 s.
    Thread.sleep(forTimeInterval: 0.3)
    var changes: [LatencyAnalysis.Change] = []
    let load = BackgroundLoad()
    let gestureStart = ContinuousClock.now
    let interval = 1 / Self.eventsPerSecond
    for index in 0..<options.sliderEvents {
      let due = gestureStart.advanced(by: .seconds(Double(index) * interval))
      let wait = Timing.seconds(from: ContinuousClock.now, to: due)
      if wait > 0 { Thread.sleep(forTimeInterval: wait) }
      let step = index % 200
      let exposure = Double(step < 100 ? step + 1 : 199 - step) * 0.01
      let snapshot = controls.update { $0.exposureBias = exposure }
      changes.append(
        LatencyAnalysis.Change(
          generation: snapshot.generation,
          setAt: Timing.seconds(from: origin, to: snapshot.updatedAt)))
    }
    // Give the last change time to reach a frame, then stop the renderer.
    Thread.sleep(forTimeInterval: 0.3)
    let otherCores = load.otherCoresSince()
    log.stop()
    finished.wait()
    let (frames, restarted, failure) = log.result()
    if let failure { throw VipsError("the render thread failed: \(failure)") }
    let gestureFrames = frames.filter { $0.finishedAt >= changes.first?.setAt ?? 0 }
    let analysis = LatencyAnalysis(changes: changes, frames: gestureFrames)
    guard let latency = Summary(analysis.latencies),
      let frameTime = Summary(gestureFrames.map { $0.finishedAt - $0.startedAt })
    else { throw VipsError("no frame showed a slider change") }
    return LatencyResult(
      frame: frame.name, state: "colour + mixing, exposure sweeping", threads: Self.threads,
      restartWindow: restartWindow, restartedFrames: restarted,
      events: changes.count, eventsPerSecond: Self.eventsPerSecond, frames: gestureFrames.count,
      latency: latency.scaled(by: 1000), frameTime: frameTime.scaled(by: 1000),
      unresolved: analysis.unresolved, superseded: analysis.superseded,
      staleFrames: analysis.staleFrames,
      maxStaleFramesPerChange: analysis.staleFramesPerChange.max() ?? 0,
      changesWithStaleFrames: analysis.staleFramesPerChange.filter { $0 > 0 }.count,
      otherProcessCores: otherCores, definitions: LatencyAnalysis.definitions)
  }

  /// Renders frames back to back until `log` is stopped, logging each frame's generation and times.
  private static func renderLoop(
    pixels: [UInt8], width: Int, height: Int, restartWindow: Double, controls: LiveControlState,
    log: RenderLog, origin: ContinuousClock.Instant
  ) throws {
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: .rgb24, controls: controls)
    renderer.restartWindow = restartWindow
    let ring = FrameRing(pixels: pixels)
    var frames: [LatencyAnalysis.Frame] = []
    frames.reserveCapacity(4096)
    var frameNumber = 0
    while !log.isStopped {
      let start = ContinuousClock.now
      let generation = try renderer.render(ring.input(frameNumber), into: ring.output(frameNumber))
      let end = ContinuousClock.now
      frameNumber += 1
      frames.append(
        LatencyAnalysis.Frame(
          generation: generation, startedAt: Timing.seconds(from: origin, to: start),
          finishedAt: Timing.seconds(from: origin, to: end)))
    }
    log.deliver(frames, restarted: renderer.restartedFrames)
  }
}

/// What the render thread hands back: its frame log or a failure, and the flag that stops it.
private final class RenderLog: Sendable {
  private let stopped = Atomic<Bool>(false)
  private let storage = Mutex<(frames: [LatencyAnalysis.Frame], restarted: Int, failure: String?)>(
    ([], 0, nil))

  /// True once the gesture is over.
  var isStopped: Bool { stopped.load(ordering: .acquiring) }
  /// Asks the render thread to stop after its current frame.
  func stop() { stopped.store(true, ordering: .releasing) }
  /// Hands over the frames rendered and how many of them restarted.
  func deliver(_ frames: [LatencyAnalysis.Frame], restarted: Int) {
    storage.withLock {
      $0.frames = frames
      $0.restarted = restarted
    }
  }
  /// Records why the render thread stopped early.
  func fail(_ message: String) {
    storage.withLock { $0.failure = message }
    stop()
  }
  /// The frames, the restarts and any failure.
  func result() -> ([LatencyAnalysis.Frame], Int, String?) {
    storage.withLock { ($0.frames, $0.restarted, $0.failure) }
  }
}
