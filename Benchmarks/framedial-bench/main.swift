import BenchmarkSupport
import Foundation
import FrameDialCLI
import Vips

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `line` to standard error (progress and errors; the report goes to standard output).
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Runs the sections the options ask for and returns the results with their targets checked.
func runBenchmarks(_ options: BenchmarkOptions) throws -> BenchmarkResult {
  try Vips.start()
  let progress: (String) -> Void = { printError("framedial-bench: \($0)") }
  var result = BenchmarkResult(
    machine: Machine.current(), quick: options.quick,
    frameSource:
      "\(URL(fileURLWithPath: options.imagePath).lastPathComponent) centre-cropped to 16:9 and "
      + "enlarged with libvips Lanczos 3 to 1920×1080 and 3840×2160, packed RGB8 in memory",
    framesPerCase: options.frames, unoptimizedFramesPerCase: options.unoptimizedFrames,
    warmupFrames: options.warmupFrames, unoptimizedWarmupFrames: options.unoptimizedWarmupFrames)
  let sections = options.sections
  if sections.contains(.frames) || sections.contains(.latency) || sections.contains(.python)
    || sections.contains(.hdr)
  {
    let hd = try SampleFrame.make(name: "1080p", from: options.imagePath, width: 1920, height: 1080)
    if sections.contains(.hdr) {
      result.hdr = try HDRFrameBenchmark(options: options, progress: progress).run(frame: hd)
    }
    if sections.contains(.frames) {
      let uhd = try SampleFrame.make(name: "4K", from: options.imagePath, width: 3840, height: 2160)
      result.frames = try FrameBenchmark(options: options, progress: progress).run(frames: [
        hd, uhd,
      ])
      let yuv = YUVBenchmark(options: options, progress: progress)
      progress("frames: 1080p yuv420p against rgb24 renders")
      let renders = try yuv.renderTimes(hd, frames: options.frames)
      let pipes = try yuv.pipeRates(
        frames: options.quick ? 50 : 250, rounds: options.quick ? 1 : 5)
      result.yuv = YUVResult(
        yuvRenderMilliseconds: renders.yuv, rgbRenderMilliseconds: renders.rgb,
        y4mPipeFPS: pipes.y4m, rgbPipeFPS: pipes.rgb, pipeRatio: pipes.ratio)
    }
    if sections.contains(.python) {
      result.python = try PythonBenchmark(options: options, progress: progress).run(frame: hd)
      result.daskBatch = try DaskBatchBenchmark(options: options, progress: progress).run()
    }
    if sections.contains(.latency) {
      result.latency = try LatencyBenchmark.restartWindows.map { window in
        progress(
          "latency: \(options.sliderEvents) slider events at 120/s, restart window \(window)")
        return try LatencyBenchmark(options: options).run(frame: hd, restartWindow: window)
      }
    }
  }
  if sections.contains(.compile) {
    progress("compile: \(options.compilations) recompiles and cache hits")
    result.compile = try CompileBenchmark(options: options).run()
  }
  if sections.contains(.batch) {
    result.batch = try BatchBenchmark(options: options, progress: progress).run()
    result.batchInput = BatchBenchmark.inputDescription
  }
  if sections.contains(.raw) {
    result.raw = try RawBatchBenchmark(options: options, progress: progress).run()
    result.rawInput = RawBatchBenchmark.inputDescription
  }
  if sections.contains(.browser) {
    result.browser = try BrowserBenchmark(options: options, progress: progress).run()
  }
  if sections.contains(.video) {
    let benchmark = VideoBenchmark(options: options, progress: progress)
    result.video = try benchmark.run()
    result.videoInput = benchmark.inputDescription
    result.hdrVideoInput = benchmark.hdrInputDescription
  }
  result.targets = Targets.check(result)
  return result
}

/// The process's exit code: 0 after a run (targets missed or not), 1 when a run failed, 2 for bad usage.
func main() -> Int32 {
  let options: BenchmarkOptions
  do {
    options = try BenchmarkOptions(Array(CommandLine.arguments.dropFirst()))
  } catch let error where error == .help {
    print(BenchmarkOptions.usage + "\n\noptions:\n" + BenchmarkOptions.parser.optionsHelp)
    return 0
  } catch {
    printError("framedial-bench: \(error.message)\n\(BenchmarkOptions.usage)")
    return 2
  }
  do {
    let result = try runBenchmarks(options)
    if options.json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
      print(String(decoding: try encoder.encode(result), as: UTF8.self))
    } else {
      print(Report.markdown(result))
    }
    return 0
  } catch {
    printError("framedial-bench: \(error)")
    return 1
  }
}

if CommandLine.arguments.dropFirst().first == ChildProcess.launcherFlag {
  exit(ChildProcess.launch(Array(CommandLine.arguments.dropFirst(2))))
}
exit(main())
