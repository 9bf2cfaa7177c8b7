import Controls
import Foundation
import FrameDial
import Measurement
import Vips

/// What the Python section measured: one 1080p colour frame rendered from Python (the `framedial`
/// package over libFrameDialC.so) against the same render from Swift, and four threads of each.
struct PythonResult: Sendable, Codable {
  /// The interpreter used.
  var python: String
  /// Median milliseconds of one frame, one calling thread, from Swift and from Python.
  var swiftMedian: Double
  var pythonMedian: Double
  /// Frames per second with four threads rendering four frames at once (each its own renderer), and
  /// with one thread, from Swift and from Python.
  var swiftOneThreadFPS: Double
  var swiftFourThreadsFPS: Double
  var pythonOneThreadFPS: Double
  var pythonFourThreadsFPS: Double
  /// Python's median over Swift's, per round (the two take turns, so a busy moment meets both).
  var roundRatios: [Double]
  /// Python's four-thread scaling over Swift's, per round.
  var roundScalings: [Double]

  /// Python's median over Swift's: the median of the rounds' ratios.
  var medianRatio: Double { Statistics.median(sorted: roundRatios.sorted()) }
  /// Four threads' throughput over one thread's.
  var swiftScaling: Double { swiftFourThreadsFPS / swiftOneThreadFPS }
  var pythonScaling: Double { pythonFourThreadsFPS / pythonOneThreadFPS }
  /// Python's scaling over Swift's: the median of the rounds' ratios.
  var scalingShare: Double { Statistics.median(sorted: roundScalings.sorted()) }
}

/// Runs the same render from Swift in this process and from Python in a child process.
struct PythonBenchmark {
  let options: BenchmarkOptions
  let progress: (String) -> Void

  /// The first Python that imports `modules` (by default the `framedial` package and numpy):
  /// $FRAMEDIAL_BENCH_PYTHON, the `python3` on PATH, the virtual environment `.ci/run` makes
  /// (`.build/ci-venv`) or the one `scripts/test.sh` makes (`.build/python-venv`); nil when none does.
  static func interpreter(importing modules: String = "framedial, numpy") -> String? {
    let repository = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
      ProcessInfo.processInfo.environment["FRAMEDIAL_BENCH_PYTHON"], "python3",
      repository.appendingPathComponent(".build/ci-venv/bin/python3").path,
      repository.appendingPathComponent(".build/python-venv/bin/python3").path,
    ].compactMap { $0 }
    return candidates.first { candidate in
      (try? run(candidate, ["-c", "import \(modules)"]))?.status == 0
    }
  }

  /// Runs `executable` (looked up on PATH) to completion: its exit status and standard output;
  /// standard error is dropped, or passed through with `showErrors`.
  static func run(_ executable: String, _ arguments: [String], showErrors: Bool = false) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    if !showErrors { process.standardError = FileHandle.nullDevice }
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Measures `frame` with the colour state; nil (with a progress line) when no Python has the package.
  func run(frame: SampleFrame) throws -> PythonResult? {
    guard let python = Self.interpreter() else {
      progress(
        "python: skipped — no python3 imports framedial (run scripts/python-install.sh in a "
          + "virtual environment, or set FRAMEDIAL_BENCH_PYTHON)")
      return nil
    }
    let count = options.quick ? 40 : 200
    let threadFrames = options.quick ? 10 : 50
    progress(
      "python: \(count) frames of 1080p colour from Swift and from \(python), taking turns")
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-python-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let framePath = scratch.appendingPathComponent("frame.rgb").path
    try Data(frame.pixels).write(to: URL(fileURLWithPath: framePath))
    let state = String(decoding: try FrameState.colourState.jsonData(), as: UTF8.self)
    let script = scratch.appendingPathComponent("bench.py").path
    try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
    // Swift and Python take turns, a round each, so a busy moment on the shared machine meets both;
    // each ratio (median render time, four-thread scaling) is the median of the rounds' ratios.
    let rounds = options.quick ? 2 : 5
    // Every round times `count` frames a side: rounds of a few dozen frames (a tenth of a second) were
    // at the mercy of one busy moment.
    let perRound = count
    var (swiftTimes, pythonMedians, ratios) = ([Double](), [Double](), [Double]())
    var (swiftRates, pythonRates, scalings) = (
      [(Double, Double)](), [(Double, Double)](), [Double]()
    )
    for _ in 1...rounds {
      let swift = try swiftFrameTimes(frame, count: perRound).sorted()
      let swiftRate = (
        try swiftThroughput(frame, threads: 1, framesEach: threadFrames),
        try swiftThroughput(frame, threads: 4, framesEach: threadFrames)
      )
      let child = try Self.run(
        python,
        [
          script, framePath, String(frame.width), String(frame.height), state, String(perRound),
          String(threadFrames),
        ])
      guard child.status == 0,
        let json = try JSONSerialization.jsonObject(with: Data(child.output.utf8))
          as? [String: Double],
        let median = json["median"], let one = json["one"], let four = json["four"]
      else { throw RenderError("the Python benchmark failed: \(child.output)") }
      swiftRates.append(swiftRate)
      pythonRates.append((one, four))
      scalings.append((four / one) / (swiftRate.1 / swiftRate.0))
      ratios.append(median / swift[(swift.count - 1) / 2])
      swiftTimes += swift
      pythonMedians.append(median)
    }
    swiftTimes.sort()
    return PythonResult(
      python: python, swiftMedian: swiftTimes[(swiftTimes.count - 1) / 2] * 1000,
      pythonMedian: Statistics.median(sorted: pythonMedians.sorted()) * 1000,
      swiftOneThreadFPS: Self.median(swiftRates.map(\.0)),
      swiftFourThreadsFPS: Self.median(swiftRates.map(\.1)),
      pythonOneThreadFPS: Self.median(pythonRates.map(\.0)),
      pythonFourThreadsFPS: Self.median(pythonRates.map(\.1)), roundRatios: ratios,
      roundScalings: scalings)
  }

  private static func median(_ values: [Double]) -> Double {
    Statistics.median(sorted: values.sorted())
  }

  private func swiftFrameTimes(_ frame: SampleFrame, count: Int) throws -> [Double] {
    let renderer = try FrameRenderer(
      width: frame.width, height: frame.height, pixelFormat: .rgb24,
      controls: LiveControlState(FrameState.colourState))
    var output = [UInt8](repeating: 0, count: frame.pixels.count)
    var times: [Double] = []
    try frame.pixels.withUnsafeBytes { input in
      try output.withUnsafeMutableBytes { output in
        for index in 0..<(count + 10) {
          let seconds = try Timing.measure { try renderer.render(input, into: output) }
          if index >= 10 { times.append(seconds) }
        }
      }
    }
    return times
  }

  /// Frames per second with `threads` threads, each with its own renderer and buffers, rendering
  /// `framesEach` frames at once.
  private func swiftThroughput(_ frame: SampleFrame, threads: Int, framesEach: Int) throws -> Double
  {
    let workers = try (0..<threads).map { _ in try ThreadWork(frame) }
    for worker in workers { try worker.render(2) }
    let group = DispatchGroup()
    let start = ContinuousClock.now
    for worker in workers {
      group.enter()
      Thread {
        worker.failure = Result { try worker.render(framesEach) }
        group.leave()
      }.start()
    }
    group.wait()
    let seconds = Timing.seconds(from: start, to: ContinuousClock.now)
    for worker in workers { try worker.failure?.get() }
    return Double(threads * framesEach) / seconds
  }

  /// One thread's renderer and buffers.
  private final class ThreadWork: @unchecked Sendable {
    let renderer: FrameRenderer
    let input: [UInt8]
    var output: [UInt8]
    var failure: Result<Void, any Error>?

    init(_ frame: SampleFrame) throws {
      renderer = try FrameRenderer(
        width: frame.width, height: frame.height, pixelFormat: .rgb24,
        controls: LiveControlState(FrameState.colourState))
      input = frame.pixels
      output = [UInt8](repeating: 0, count: frame.pixels.count)
    }

    func render(_ count: Int) throws {
      try input.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes { output in
          for _ in 0..<count { try renderer.render(input, into: output) }
        }
      }
    }
  }

  /// The Python side: the same frame, state and counts, timed with perf_counter; prints JSON.
  static let script = """
    import json, statistics, sys, threading, time
    import numpy as np
    import framedial

    path, width, height, state, count, each = sys.argv[1:]
    width, height, count, each = int(width), int(height), int(count), int(each)
    frame = np.fromfile(path, dtype=np.uint8).reshape(height, width, 3)
    state = json.loads(state)

    def renderer():
        r = framedial.FrameRenderer(width, height, "rgb24")
        r.set_state(state)
        return r

    single = renderer()
    out = np.empty_like(frame)
    times = []
    for index in range(count + 10):
        start = time.perf_counter()
        single.render(frame, out=out)
        if index >= 10:
            times.append(time.perf_counter() - start)

    def throughput(threads):
        workers = [(renderer(), frame.copy(), np.empty_like(frame)) for _ in range(threads)]
        for r, source, target in workers:
            r.render(source, out=target)
        barrier = threading.Barrier(threads + 1)
        def work(r, source, target):
            barrier.wait()
            for _ in range(each):
                r.render(source, out=target)
        running = [threading.Thread(target=work, args=w) for w in workers]
        for t in running:
            t.start()
        barrier.wait()
        start = time.perf_counter()
        for t in running:
            t.join()
        return threads * each / (time.perf_counter() - start)

    one = throughput(1) if each else 0.0
    four = throughput(4) if each else 0.0
    print(json.dumps({"median": statistics.median(times), "one": one, "four": four}))
    """
}
