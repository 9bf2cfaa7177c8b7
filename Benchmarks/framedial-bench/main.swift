import Foundation
import FrameDial
import FrameDialCLI
import FrameDialFullCLI
import Measurement
import RowKernels
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
  // HEIC read in this process is decoded as `framedial` decodes it.
  HEVCDecoding.useFFmpeg()
  let progress: (String) -> Void = { printError("framedial-bench: \($0)") }
  var result = BenchmarkResult(
    machine: Machine.current(), quick: options.quick,
    frameSource:
      "\(URL(fileURLWithPath: options.imagePath).lastPathComponent) centre-cropped to 16:9 and "
      + "enlarged with libvips Lanczos 3 to 1920×1080 and 3840×2160, packed RGB8 in memory",
    framesPerCase: options.frames, unoptimizedFramesPerCase: options.unoptimizedFrames,
    warmupFrames: options.warmupFrames, unoptimizedWarmupFrames: options.unoptimizedWarmupFrames,
    kernelPath: KernelPath.current.description)
  let sections = options.sections
  if sections.contains(.frames) || sections.contains(.latency) || sections.contains(.python)
    || sections.contains(.hdr)
  {
    let hd = try SampleFrame.make(name: "1080p", from: options.imagePath, width: 1920, height: 1080)
    if sections.contains(.hdr) {
      result.hdr = try HDRFrameBenchmark(options: options, progress: progress).run(frame: hd)
      let clip = try VideoBenchmark(options: options, progress: progress).generateHLGClip()
      result.hdrYUV = try HDRYUVBenchmark(options: options, progress: progress).run(
        frame: hd, clip: clip)
      let studio = try StudioHDRBenchmark(options: options, progress: progress).run(clip: clip)
      (result.studioHDRDecode, result.studioHDR) = (studio.decode, studio.orders)
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
  if sections.contains(.heicDecode) {
    result.heicDecode = try HEICDecodeBenchmark(options: options, progress: progress).run()
    result.heicDecodeInput = HEICDecodeBenchmark.inputDescription
  }
  if sections.contains(.startup) {
    result.startup = try StartupBenchmark(options: options, progress: progress).run()
    result.startupInput = StartupBenchmark.inputDescription
  }
  if sections.contains(.hdrPhoto) {
    result.hdrPhoto = try HDRPhotoBenchmark(options: options, progress: progress).run()
    result.hdrPhotoInput = HDRPhotoBenchmark.inputDescription
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
    result.hlgPatternInput = VideoBenchmark.patternInputDescription
  }
  result.targets = Targets.check(result)
  return result
}

/// Replaces, in the benchmark document at `path` (created when missing), the blocks of the sections
/// `result` measured, keeping the others; returns the names of the sections written.
func writeDocument(_ result: BenchmarkResult, to path: String) throws -> [String] {
  var document = BenchmarkDocument()
  if FileManager.default.fileExists(atPath: path) {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    do {
      document = try BenchmarkDocument(parsing: text)
    } catch {
      throw RenderError("\(path): \(error.message); nothing written")
    }
  }
  let order = BenchmarkOptions.Section.allCases.map(\.rawValue)
  var written: [String] = []
  for section in BenchmarkOptions.Section.allCases {
    guard let block = Report.block(result, section: section) else { continue }
    document.replace(section.rawValue, with: block, order: order)
    written.append(section.rawValue)
  }
  let text = document.text
  try AtomicFile.write(to: path) { temporary in
    try text.write(toFile: temporary, atomically: false, encoding: .utf8)
  }
  return written
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
    if let path = options.write {
      let written = try writeDocument(result, to: path)
      printError(
        "framedial-bench: wrote "
          + (written.isEmpty ? "no section (none was measured)" : written.joined(separator: ", "))
          + " into \(path)")
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
