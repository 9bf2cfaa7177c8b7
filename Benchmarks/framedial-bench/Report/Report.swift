import Measurement

/// The Markdown report: a header with the machine, then one table per section and the targets.
enum Report {
  /// The whole report.
  static func markdown(_ result: BenchmarkResult) -> String {
    var lines = header(result)
    for section in BenchmarkOptions.Section.allCases {
      lines += tables(result, section: section)
    }
    lines += targetTable(result.targets)
    return lines.joined(separator: "\n")
  }

  /// One section as a block of the benchmark document: a heading, the run (kind, machine, date, load),
  /// the section's tables and its targets; nil when the run has no measurements of the section.
  static func block(_ result: BenchmarkResult, section: BenchmarkOptions.Section) -> String? {
    let tables = tables(result, section: section).drop { $0.isEmpty }
    guard !tables.isEmpty else { return nil }
    let targets = Targets.check(result, section: section)
    let run = result.quick ? "quick (`--quick`: too few samples for p99)" : "full"
    var lines = [
      "## \(title(section)) (`\(section.rawValue)`)",
      "",
      "Run: \(run) · \(machineLine(result.machine))",
      "",
    ]
    lines += tables
    if !targets.isEmpty {
      if lines.last != "" { lines.append("") }
      lines += targetTable(targets, title: "Targets of this section")
    }
    return lines.joined(separator: "\n")
  }

  /// What each section measures, as its heading in the benchmark document.
  private static func title(_ section: BenchmarkOptions.Section) -> String {
    switch section {
    case .frames: "Frames in memory"
    case .hdr: "16-bit frames by colour encoding"
    case .compile: "Compile cost"
    case .latency: "Slider-to-frame latency"
    case .batch: "Batch of photos"
    case .raw: "Batch of camera raws"
    case .python: "Python"
    case .video: "Video files"
    case .browser: "Studio in a browser"
    case .heicDecode: "HEIC decode"
    case .startup: "Start-up"
    case .hdrPhoto: "HDR photo"
    }
  }

  /// One section's tables, or none when the run did not measure it.
  private static func tables(_ result: BenchmarkResult, section: BenchmarkOptions.Section)
    -> [String]
  {
    switch section {
    case .frames:
      guard let frames = result.frames else { return [] }
      return frameTable(frames, result) + scalingTable(frames) + (result.yuv.map(yuvTable) ?? [])
    case .hdr:
      return (result.hdr.map(hdrTable) ?? []) + (result.hdrYUV.map(hdrYUVTable) ?? [])
        + studioHDRTable(result)
    case .compile: return result.compile.map(compileTable) ?? []
    case .latency: return result.latency.map { latencyTable($0, result) } ?? []
    case .batch: return result.batch.map { batchTable($0, result) } ?? []
    case .raw: return result.raw.map { rawTable($0, result) } ?? []
    case .python:
      return (result.python.map(pythonTable) ?? []) + (result.daskBatch.map(daskBatchTable) ?? [])
    case .video: return result.video.map { videoTable($0, result) } ?? []
    case .browser: return result.browser.map(browserTable) ?? []
    case .heicDecode: return result.heicDecode.map { heicDecodeTable($0, result) } ?? []
    case .startup: return result.startup.map { startupTable($0, result) } ?? []
    case .hdrPhoto: return result.hdrPhoto.map { hdrPhotoTable($0, result) } ?? []
    }
  }

  private static func yuvTable(_ yuv: YUVResult) -> [String] {
    [
      "",
      "YUV frames, 1080p colour + mixing (yuv420p BT.709 TV; pipes over a 1080p H.264 clip, 250 "
        + "frames, the two pipes taking turns for 5 rounds, each round in the other order; frames/s "
        + "are medians, and the pipe ratio is the median of the rounds' ratios):",
      "",
      "| measure | yuv420p / --y4m | rgb24 |", "|---|---|---|",
      "| render, median ms | \(n(yuv.yuvRenderMilliseconds)) | \(n(yuv.rgbRenderMilliseconds)) |",
      "| whole pipe, frames/s | \(n(yuv.y4mPipeFPS)) | \(n(yuv.rgbPipeFPS)) |",
      "| whole pipe, --y4m ÷ rgb24 per round, median | \(n(yuv.pipeRatio))× | |", "",
    ]
  }

  /// The studio's HDR frames: controls in HDR light then tone-mapped, beside the order before.
  private static func studioHDRTable(_ result: BenchmarkResult) -> [String] {
    guard let studio = result.studioHDR else { return [] }
    var lines = [
      "`framedial studio` on the video section's 1080p HLG clip, looped: a frame's work from the "
        + "decoded frame to the page's 8-bit picture at the iPhone 16 Pro viewfinder's size, colour "
        + "+ mixing state: the studio's orders from the decoded 10-bit planes (their scaling and "
        + "conversion included), the two orders before them from the frame converted to rgb48le "
        + "at the coded size (that conversion timed with the decode, in the last row); libvips and "
        + "the one pass on the threads named (the tone mapping of the whole 1080p frame in the "
        + "first row runs on every core, as it always does); the rows take turns frame by frame; "
        + "milliseconds; ratio = median ÷ the first row's median:",
      "",
      "| order | picture | median | p99 | ratio |", "|---|---|---|---|---|",
    ]
    lines += studio.map { entry in
      row([
        entry.order + " (\(Format.count(entry.threads ?? 1, "thread")))",
        "\(entry.width)×\(entry.height)", n(entry.milliseconds.median),
        n(entry.milliseconds.p99), n(entry.ratioToToneMapFirst) + "×",
      ])
    }
    if let decode = result.studioHDRDecode {
      lines.append(
        row([
          "the player's decode, and the rgb48le conversion the orders before start from (1080p)",
          "1920×1080",
          n(decode.median), n(decode.p99), "",
        ]))
    }
    return lines + [""]
  }

  private static func hdrTable(_ hdr: [HDRFrameResult]) -> [String] {
    [
      "### 16-bit frames by colour encoding (milliseconds)",
      "",
      "1080p rgb48le frames (the sample frame's codes × 257; the "
        + "encodings take turns frame by frame; ratio = median ÷ sRGB's median):",
      "",
      "| state | encoding | median | p99 | ratio to sRGB |", "|---|---|---|---|---|",
    ]
      + hdr.map { entry in
        row([
          entry.state, entry.encoding, n(entry.milliseconds.median), n(entry.milliseconds.p99),
          n(entry.ratioToSRGB) + "×",
        ])
      } + [""]
  }

  private static func hdrYUVTable(_ rows: [HDRYUVResult]) -> [String] {
    [
      "### 10-bit HLG frames, kept and tone-mapped (milliseconds)",
      "",
      "1080p yuv420p10le frames, HLG over BT.2020, TV range (the sample frame made 10-bit Y′CbCr by "
        + "FrameDial's conversion), rendered as `framedial video` renders them (colour state: "
        + "ev 0.5, tungsten, contrast 1.2, saturation 1.3); the cases take turns frame by frame; CPU "
        + "is every thread's; ratio = wall median ÷ the memory copy's:",
      "",
      "| case | wall median | wall p99 | CPU median | CPU p99 | ratio to copy |",
      "|---|---|---|---|---|---|",
    ]
      + rows.map { entry in
        row([
          entry.role, n(entry.milliseconds.median), n(entry.milliseconds.p99),
          n(entry.cpuMilliseconds.median), n(entry.cpuMilliseconds.p99),
          n(entry.ratioToCopy) + "×",
        ])
      } + [""]
  }

  private static func n(_ value: Double) -> String { Format.number(value) }

  private static func row(_ cells: [String]) -> String {
    "| " + cells.joined(separator: " | ") + " |"
  }

  private static func table(_ head: [String], _ rows: [[String]]) -> [String] {
    [row(head), row(head.map { _ in "---" })] + rows.map(row)
  }

  private static func mark(_ measured: Double, _ bound: Target.Bound, _ limit: Double) -> String {
    let target = Target("", measured: measured, bound, limit, unit: "×")
    return "\(target.limitText) \(target.mark)"
  }

  private static func header(_ result: BenchmarkResult) -> [String] {
    [
      "## FrameDial benchmark\(result.quick ? " (quick run: too few samples for p99)" : "")",
      "",
      machineLine(result.machine),
      "",
    ]
  }

  private static func machineLine(_ machine: Machine) -> String {
    "Machine: \(machine.cpuModel), \(machine.cores) cores"
      + (machine.kernelPath.map { " (\($0) kernels)" } ?? "")
      + " · libvips \(machine.libvipsVersion) · "
      + "Linux \(machine.kernel) · \(machine.date) · load average at start \(machine.loadAverage) "
      + "(a shared machine: other work runs beside the benchmark)"
  }

  private static func frameTable(_ frames: [FrameResult], _ result: BenchmarkResult) -> [String] {
    var rows: [[String]] = []
    var last = ("", 0)
    for frame in frames {
      if frame.frame != last.0 || frame.threads != last.1 {
        last = (frame.frame, frame.threads)
        let pass = frame.memoryPassOnThreads
        rows.append([
          frame.frame, String(frame.threads),
          frame.threads == 1
            ? "memory pass (memcpy, the floor)"
            : "memory pass (memcpy in \(frame.threads) bands at once)",
          n(pass.median), n(pass.p99), n(pass.min),
          frame.threads == 1 ? "1" : n(pass.median / frame.memoryPass.median) + "×", "", "", "", "",
          "",
        ])
      }
      let speedup = frame.unoptimizedSpeedup.map { n($0) + "×" } ?? "–"
      var speedupTarget = ""
      if let limit = frame.unoptimizedSpeedupLimit, let value = frame.unoptimizedSpeedup {
        speedupTarget = mark(value, .atLeast, limit)
      }
      rows.append([
        frame.frame, String(frame.threads), frame.state, n(frame.optimized.median),
        n(frame.optimized.p99), n(frame.optimized.min), n(frame.memoryPassRatio) + "×",
        mark(frame.memoryPassRatio, .atMost, frame.memoryPassLimit),
        frame.unoptimized.map { n($0.median) } ?? "–", speedup, speedupTarget,
        n(frame.otherProcessCores),
      ])
    }
    return [
      "### Per-frame render (RGB8, milliseconds)",
      "",
      "Frames: \(result.frameSource). \(result.framesPerCase) timed frames per case after "
        + "\(result.warmupFrames) warm-up; the unoptimized graph (`optimized = false`) on "
        + "\(result.unoptimizedFramesPerCase) timed frames after \(result.unoptimizedWarmupFrames) "
        + "warm-up. Median, p99 (nearest rank), min. Ratios are medians over the memory pass (one `memcpy` of the frame, one thread). Frames "
        + "cycle through a ring of input and output buffers of at least 64 MB each side, so no frame "
        + "is in the cache when it is rendered or copied (as with frames from a camera). One and two "
        + "threads alternate every \(FrameBenchmark.block) frames (every frame when unoptimized), so "
        + "both see the same background load. \"Other processes\" is the CPU other processes used "
        + "while the state's optimized frames were timed (/proc/stat minus this process), in cores.",
      "",
      "Kernel path: \(result.kernelPath ?? "not recorded") (the fastest this CPU has unless "
        + "`FRAMEDIAL_SIMD` = scalar, avx2 or avx512 limits it).",
      "",
    ]
      + table(
        [
          "frame", "threads", "state", "median", "p99", "min", "× memory pass", "target",
          "unoptimized median", "faster than unoptimized", "target", "other processes (cores)",
        ], rows) + [""]
  }

  private static func scalingTable(_ frames: [FrameResult]) -> [String] {
    var rows: [[String]] = []
    if let one = frames.first(where: { $0.frame == "4K" && $0.threads == 1 }),
      let two = frames.first(where: { $0.frame == "4K" && $0.threads == 2 })
    {
      let (single, double) = (one.memoryPassOnThreads, two.memoryPassOnThreads)
      rows.append([
        "memory pass (memcpy, the bandwidth bound)", n(single.median), n(double.median),
        n(single.median / double.median) + "×", "", n(single.min / double.min) + "×", "",
      ])
    }
    rows += Targets.scalings(frames).map { scaling -> [String] in
      let one = frames.first { $0.frame == "4K" && $0.threads == 1 && $0.state == scaling.state }
      let two = frames.first { $0.frame == "4K" && $0.threads == 2 && $0.state == scaling.state }
      return [
        scaling.state, one.map { n($0.optimized.median) } ?? "–",
        two.map { n($0.optimized.median) } ?? "–", n(scaling.ratio) + "×",
        mark(scaling.ratio, .atLeast, Targets.twoThreadScaling),
        one.flatMap { one in two.map { n(one.optimized.min / $0.optimized.min) + "×" } } ?? "–",
        one.map { n($0.otherProcessCores) } ?? "–",
      ]
    }
    guard rows.count > 1 else { return [] }
    return [
      "### Two threads at 4K (throughput = 1 / median frame time)",
      "",
      "The memory pass row copies the same frame with `memcpy`, one band per thread: how far a pass "
        + "bound by memory bandwidth can scale on this machine.",
      "",
    ]
      + table(
        [
          "state", "1 thread ms", "2 threads ms", "throughput ratio", "target",
          "ratio of fastest frames", "other processes (cores)",
        ], rows) + [""]
  }

  private static func compileTable(_ compile: CompileResult) -> [String] {
    let rows = [
      (
        "recompile after one slider change", compile.recompile, Targets.recompileMicroseconds
      ),
      ("plan-cache hit", compile.cacheHit, Targets.cacheHitMicroseconds),
    ].map { name, summary, limit -> [String] in
      let target = Target(name, measured: summary.median, .atMost, limit, unit: "µs")
      return [
        name, String(summary.count), n(summary.median), n(summary.p99), n(summary.min),
        "median \(target.limitText) \(target.mark)",
      ]
    }
    return ["### Compile cost (microseconds)", "", CompileResult.method, ""]
      + table(["what", "n", "median", "p99", "min", "target"], rows) + [""]
  }

  private static func latencyTable(_ runs: [LatencyResult], _ result: BenchmarkResult) -> [String] {
    guard let first = runs.first else { return [] }
    let reference = Targets.latencyReferenceFrameTime(result)
    let rows = runs.enumerated().map { index, latency in
      let ratio = latency.latency.p99 / reference.milliseconds
      let restart =
        latency.restartWindow > 0
        ? "restart window \(n(latency.restartWindow)) (default), \(latency.restartedFrames) restarted"
        : "restart off (every frame finishes)"
      return [
        "\(latency.frame) \(latency.state), \(Format.count(latency.threads, "thread")), \(restart), "
          + "other processes "
          + "\(n(latency.otherProcessCores)) cores",
        "\(latency.events) at \(n(latency.eventsPerSecond))/s", String(latency.frames),
        n(latency.latency.median), n(latency.latency.p99), n(latency.latency.max),
        n(latency.frameTime.median), n(ratio) + "×",
        index == 0 ? mark(ratio, .atMost, Targets.latencyFrameTimes) : "comparison",
        "\(latency.staleFrames) (≤ \(latency.maxStaleFramesPerChange) per change; "
          + "\(latency.changesWithStaleFrames) of \(latency.events) changes)",
        String(latency.superseded), String(latency.unresolved),
      ]
    }
    return [
      "### Slider-to-frame latency (milliseconds)",
      "",
      "A replayed gesture sets exposure (0 → +1 EV and back, 0.01 EV steps) on one thread while frames "
        + "render back to back on another. Definitions: \(first.definitions). Restarting: a change seen "
        + "before the restart window's fraction of a frame is computed abandons the frame and renders it "
        + "again with the new value (at most once per frame); the target is checked on the default. "
        + "Frame time for the target (p99 ÷ frame): \(reference.source), \(n(reference.milliseconds)) ms; "
        + "\"median frame\" is the median frame during the gesture, restarts included.",
      "",
    ]
      + table(
        [
          "run", "events", "frames", "p50", "p99", "max", "median frame", "p99 ÷ frame", "target",
          "stale frames", "superseded changes", "unresolved changes",
        ], rows) + [""]
  }

  private static func heicDecodeTable(_ decodes: [HEICDecodeResult], _ result: BenchmarkResult)
    -> [String]
  {
    let reference = decodes.first { $0.decoder == HEICDecodeBenchmark.Decoder.libde265.rawValue }
    let rows = decodes.map { item -> [String] in
      let ratio = reference.map { n($0.cpu.median / item.cpu.median) + "×" } ?? "–"
      return [
        item.decoder, String(item.decodes), n(item.wall.median), n(item.wall.p99),
        n(item.cpu.median), n(item.cpu.p99), ratio,
      ]
    }
    return [
      "### HEIC decode (12-megapixel, libheif to 8-bit RGB, one at a time)",
      "",
      "Inputs: \(result.heicDecodeInput ?? "–"). Each photo is decoded by each HEVC decoder in turn, "
        + "a new order each round; libheif's parsing and its Y′CbCr → RGB conversion are the same for "
        + "both. CPU seconds count every thread of the process.",
      "",
    ]
      + table(
        [
          "decoder", "decodes", "wall s median", "wall s p99", "CPU s median", "CPU s p99",
          "libde265 CPU over this",
        ], rows)
      + [""]
  }

  private static func startupTable(_ startup: [CommandPairResult], _ result: BenchmarkResult)
    -> [String]
  {
    [
      "### Start-up: one process a command, as a shell loop runs it",
      "",
      "Input: \(result.startupInput ?? "–"). Each round runs every command once as a new process, the "
        + "order turned each round, after three rounds that are not counted. Wall milliseconds from "
        + "start to exit; the ratio is the median over rounds of FrameDial's time over libvips's.",
      "",
    ] + commandPairTable(startup, ratioHeader: "÷ libvips, median of rounds")
  }

  private static func hdrPhotoTable(_ pairs: [CommandPairResult], _ result: BenchmarkResult)
    -> [String]
  {
    [
      "### HDR photo: a HEIC with its gain map kept, against the same HEIC without it",
      "",
      "Input: \(result.hdrPhotoInput ?? "–"). Each round runs both commands once as new processes, "
        + "the order turned each round, after one round that is not counted. Wall milliseconds from "
        + "start to exit (reading the photo, and for the kept one its gain map; writing the HEIC at "
        + "FrameDial's default quality 60, and the gain map at 75); the ratio is the median over "
        + "rounds of the kept one's time over the dropped one's.",
      "",
    ] + commandPairTable(pairs, ratioHeader: "÷ without the gain map, median of rounds")
  }

  /// The rows of command pairs: each command's runs, median and p99, and the pair's ratio.
  private static func commandPairTable(_ pairs: [CommandPairResult], ratioHeader: String)
    -> [String]
  {
    let rows = pairs.flatMap { item -> [[String]] in
      guard let ours = Summary(item.framedialMilliseconds),
        let theirs = Summary(item.anchorMilliseconds)
      else { return [] }
      return [
        [
          "`\(item.framedialCommand)`", String(ours.count), n(ours.median), n(ours.p99),
          item.ratio.map { n($0) + "×" } ?? "–",
        ],
        ["`\(item.anchorCommand)`", String(theirs.count), n(theirs.median), n(theirs.p99), ""],
      ]
    }
    return table(["command", "runs", "ms median", "ms p99", ratioHeader], rows) + [""]
  }

  private static func rawTable(_ raw: [BatchResult], _ result: BenchmarkResult) -> [String] {
    let comparisons = Targets.rawComparisons(raw)
    let darktable =
      raw.contains { $0.role == RawBatchBenchmark.Case.darktable.rawValue }
      ? "darktable-cli develops them with its default pipeline to JPEG, a process per file."
      : "darktable-cli is not measured (not installed: `apt-get install darktable`)."
    let rows = raw.map { item -> [String] in
      let marks = comparisons.filter { $0.role == item.role }.map { comparison in
        let target = comparison.target
        return "\(n(target.measured))× \(comparison.against), \(target.limitText) \(target.mark)"
      }
      return [
        String(item.jobs), String(item.images), String(item.runs), n(item.seconds),
        n(item.imagesPerSecond), item.cpuSecondsPerImage.map(n) ?? "–", n(item.peakResidentMB),
        marks.joined(separator: "; "), item.method,
      ]
    }
    return [
      "### Batch (24-megapixel raws, colour state)",
      "",
      "Inputs: \(result.rawInput ?? "–"). Control values: "
        + BatchBenchmark.setArguments.joined(separator: " ")
        + ". FrameDial develops each raw on LibRaw (as-shot white balance, 16-bit linear) with its "
        + "own AHD demosaicing (LibRaw's AHD samples exactly) and writes JPEG quality "
        + "\(BatchBenchmark.quality); `dcraw_emu` develops the same files with the same LibRaw "
        + "settings (LibRaw's AHD) to 16-bit TIFF, no colour controls. The cases take turns, each run in a "
        + "new order; seconds and images/s are medians of their runs, each ratio the median of the "
        + "ratios of the rounds. CPU-s/image: the median run's user + system CPU seconds per image, "
        + "from `wait4` (the process and the children it waited for, `xargs`'s included): the work "
        + "done, which other load on a shared machine does not inflate as it does wall time. "
        + darktable,
      "",
    ]
      + table(
        [
          "jobs", "images", "runs", "seconds", "images/s", "CPU-s/image", "peak RSS MB", "target",
          "how",
        ], rows)
      + [""]
  }

  private static func batchTable(_ batch: [BatchResult], _ result: BenchmarkResult) -> [String] {
    let comparisons = Targets.batchComparisons(batch)
    let rows = batch.map { item -> [String] in
      var marks: [String] = []
      if item.jobs == 2 && item.role == BatchBenchmark.Case.colour.rawValue {
        let limit = Target(
          "", measured: item.peakResidentMB, .atMost, Targets.batchPeakMB, unit: "MB")
        marks.append("peak \(limit.limitText) \(limit.mark)")
      }
      if item.runs > 1 {
        for comparison in comparisons where comparison.role == item.role {
          let target = comparison.target
          let value = n(target.measured) + (target.unit == "×" ? "×" : " \(target.unit)")
          let against =
            target.unit == "%"
            ? "of floor"
            : comparison.role == BatchBenchmark.Case.p3Kept.rawValue
              ? "the time converted to sRGB"
              : target.name.contains("x265 slow")
                ? "x265 slow"
                : target.name.contains("JPEG") ? "JPEG's time" : "vipsthumbnail"
          marks.append("\(value) \(against), \(target.limitText) \(target.mark)")
        }
      }
      if let cpu = cpuComparison(item, batch) { marks.append(cpu) }
      return [
        String(item.jobs), String(item.images), String(item.runs), n(item.seconds),
        n(item.imagesPerSecond), item.cpuSecondsPerImage.map(n) ?? "–", n(item.peakResidentMB),
        marks.joined(separator: "; "), item.method,
      ]
    }
    return [
      "### Batch (12-megapixel JPEGs and HEICs, colour state)",
      "",
      "Inputs: \(result.batchInput ?? "–"). Control values: "
        + BatchBenchmark.setArguments.joined(separator: " ")
        + ". The JPEG cases write JPEG quality \(BatchBenchmark.quality); the HEIC cases read "
        + "\(BatchBenchmark.heicImages) of the photos made HEIC (quality 90) and write HEIC quality "
        + "\(BatchBenchmark.heicQuality). The floor is the identity state "
        + "through the same reader, sRGB handling and writer: decode and encode alone. The --jobs "
        + "\(BatchBenchmark.comparisonJobs) cases take turns, each run in a new order; seconds and "
        + "images/s are medians of their runs, and each ratio is the median of the ratios of the rounds. Peak resident "
        + "memory: the highest `ru_maxrss` of the process over its runs, from `wait4`, started through "
        + "a small launcher process (a child started by the benchmark itself would carry the benchmark's "
        + "own, larger high-water mark). Time: from start to exit, measured by the launcher. "
        + "CPU-s/image: the median run's user + system CPU seconds per image, from `wait4` (the "
        + "process and the children it waited for): the work done, which other load on a shared machine does not inflate as it "
        + "does wall time.",
      "",
    ]
      + table(
        [
          "jobs", "images", "runs", "seconds", "images/s", "CPU-s/image", "peak RSS MB", "target",
          "how",
        ], rows)
      + [""]
  }

  /// The HEIC cases' CPU seconds per photo against JPEG → JPEG's (colour state) and x265 slow's, as
  /// context for the wall-time targets; nil for other rows.
  private static func cpuComparison(_ item: BatchResult, _ batch: [BatchResult]) -> String? {
    let heic = [BatchBenchmark.Case.heic, .heicBalanced].map(\.rawValue)
    guard heic.contains(item.role), let cpu = item.cpuSecondsPerImage else { return nil }
    func perImage(_ role: BatchBenchmark.Case) -> Double? {
      batch.first { $0.role == role.rawValue && $0.jobs == BatchBenchmark.comparisonJobs }?
        .cpuSecondsPerImage
    }
    var parts: [String] = []
    if let jpeg = perImage(.colour) { parts.append("\(n(cpu / jpeg))× JPEG's") }
    if let slow = perImage(.heicSmall) { parts.append("\(n(cpu / slow))× x265 slow's") }
    return parts.isEmpty ? nil : "CPU-s/photo " + parts.joined(separator: ", ")
  }

  private static func videoTable(_ video: [VideoResult], _ result: BenchmarkResult) -> [String] {
    let comparisons = Targets.videoComparisons(video)
    let overFastFloor = Targets.videoOverFastFloor(video)
    let rows = video.map { item -> [String] in
      var marks = comparisons.filter { $0.role == item.role }.map { comparison in
        let target = comparison.target
        let against =
          target.bound == .atLeast
          ? "the pipe's fps"
          : VideoBenchmark.Clip.allCases.contains {
            item.role == VideoBenchmark.role(.hdrSDR, on: $0)
          }
            ? "of zscale+tonemap's time"
            : VideoBenchmark.Clip.allCases.contains {
              item.role == VideoBenchmark.role(.hdrKeep, on: $0)
            }
              ? "of the encode of its picture's time" : "of the floor's time"
        return "\(n(target.measured))× \(against), \(target.limitText) \(target.mark)"
      }
      if item.role == VideoBenchmark.Case.colourFast.rawValue, let overFastFloor {
        marks.append("\(n(overFastFloor))× the ultrafast floor's fps")
      }
      for clip in [VideoBenchmark.Clip.hlgPan, .hlgPattern]
      where item.role == VideoBenchmark.role(.hdrSDRFloor, on: clip) {
        if let floor = Targets.hdrSDRFloorOverToneMap(video, on: clip) {
          marks.append("\(n(floor))× of zscale+tonemap's time: the least --hdr sdr can take")
        }
      }
      return [
        item.role, String(item.frames), String(item.runs), n(item.seconds),
        n(item.framesPerSecond), marks.joined(separator: "; "),
        // A pipe's bars would end the table cell.
        "`\(item.method.replacingOccurrences(of: "|", with: "\\|"))`",
      ]
    }
    return [
      "### Video (1080p H.264 + AAC; 1080p HLG HEVC + AAC)",
      "",
      "Clip: \(result.videoInput ?? "–"). HLG rows: \(result.hdrVideoInput ?? "–"). HLG testsrc2 rows: "
        + "\(result.hlgPatternInput ?? "–"). Control values: "
        + BatchBenchmark.setArguments.joined(separator: " ")
        + ". The H.264 rows encode with libx264; the HLG rows kept HDR with libx265 (Main 10), "
        + "tone-mapped with libx264 (8-bit); all at CRF 18, preset medium, automatic threads on both "
        + "sides, and copy the audio. The HLG targets: without controls, framedial against ffmpeg's "
        + "re-encode of the clip; kept with the control values (the controls in HDR light), against "
        + "ffmpeg decoding the clip while it encodes framedial's own picture, exactly (PICTURE: raw "
        + "frames written once before the rounds by `\(VideoBenchmark.pictureMethod(binary: "framedial"))`"
        + "; the decoder's and the encoder's work on the same picture: the controls' brighter, harder "
        + "picture costs x265 more than the clip's own, and a re-encode of framedial's encoded output "
        + "would cost less, its grain partly smoothed by the first encode); tone-mapped with "
        + "them (the controls, then the tone mapping), against ffmpeg's zscale + tonemap chain into the "
        + "same libx264 settings, with the same kind of floor beside it: ffmpeg decoding the clip "
        + "while it encodes framedial's own SDR picture with those settings (PICTURE: raw frames "
        + "written once before the rounds by `\(VideoBenchmark.sdrPictureMethod(binary: "framedial"))`, "
        + "x264 at CRF 0 being lossless), the least the tone-mapped row can take however fast its "
        + "tone mapping. The cases take turns, "
        + "each round in a new order; seconds and frames/s are medians of their runs, and each ratio "
        + "is the median of the ratios of the rounds. Time: from start to exit, measured by a "
        + "launcher process.",
      "",
    ]
      + table(["case", "frames", "runs", "seconds", "frames/s", "target", "how"], rows) + [""]
  }

  private static func browserTable(_ browser: BrowserResult) -> [String] {
    let target = Target(
      "", measured: browser.latency.p99, .atMost, browser.latencyLimit, unit: "ms")
    return [
      "### Studio in a browser: slider-to-displayed-frame latency (milliseconds)",
      "",
      "`framedial studio` on \(browser.source) (frames rendered at the size the page shows the "
        + "iPhone 16 Pro viewfinder, \(browser.frameWidth)×\(browser.frameHeight) device pixels), "
        + "its page in \(browser.browser) driven through chromedriver by `\(browser.python)` "
        + "(Selenium): exposure selected with the keyboard, then \(browser.events) arrow-key presses "
        + "at \(n(browser.eventsPerSecond))/s sweeping it up and down, after a warm-up. Latency: from "
        + "the key event's time stamp to the animation frame in which the page's frame worker draws "
        + "the frame showing that change (raw RGBA, as a page on the studio's machine gets it, drawn "
        + "with putImageData) on the viewfinder's canvas, measured by the page (its meter); one "
        + "sample per frame shown (a frame that takes several presses together counts the newest). "
        + "Render: the studio's own timing of each frame's pixels; frame: the pixels and the RGBA "
        + "copy the page gets (`/stats`, same run). Target: p99 ≤ 3 × the median frame + 16 ms (one "
        + "display frame); counting the render alone the limit would be "
        + "\(n(browser.renderOnlyLimit)) ms. Presses no frame showed: \(browser.unshownChanges).",
      "",
    ]
      + table(
        [
          "samples", "latency median", "latency p99", "latency max", "render p50", "render p99",
          "frame p50", "frame p99", "renders", "target",
        ],
        [
          [
            String(browser.latency.count), n(browser.latency.median), n(browser.latency.p99),
            n(browser.latency.max), n(browser.renderP50), n(browser.renderP99),
            n(browser.frameP50), n(browser.frameP99), String(browser.renderSamples),
            "\(target.limitText) \(target.mark)",
          ]
        ]) + [""]
  }

  private static func targetTable(_ targets: [Target], title: String = "Targets") -> [String] {
    let met = targets.filter(\.met).count
    let rows = targets.map { target -> [String] in
      [
        target.name, n(target.measured) + (target.unit == "×" ? "×" : " \(target.unit)"),
        target.limitText, target.mark,
      ]
    }
    return ["### \(title): \(met) of \(targets.count) met", ""]
      + table(["target", "measured", "limit", ""], rows)
  }

  private static func pythonTable(_ python: PythonResult) -> [String] {
    [
      "", "### Python (1080p colour + mixing, the `framedial` package over libFrameDialC.so)", "",
      "The same frame and state from Swift (`FrameRenderer`, in this process) and from "
        + "`\(python.python)` (`framedial.FrameRenderer.render(frame, out=out)`), libvips's default "
        + "thread count, taking turns for \(python.roundRatios.count) rounds; each ratio is the "
        + "median of the rounds' ratios (render: "
        + python.roundRatios.map { n($0) + "×" }.joined(separator: ", ") + "; scaling: "
        + python.roundScalings.map { n($0) + "×" }.joined(separator: ", ")
        + "). Four threads: each its own renderer and buffers, four frames at once; the frames/s "
        + "columns are medians of the rounds.",
      "",
    ]
      + table(
        ["", "median ms", "1 thread fps", "4 threads fps", "4 ÷ 1 threads"],
        [
          [
            "Swift", n(python.swiftMedian), n(python.swiftOneThreadFPS),
            n(python.swiftFourThreadsFPS), n(python.swiftScaling) + "×",
          ],
          [
            "Python", n(python.pythonMedian), n(python.pythonOneThreadFPS),
            n(python.pythonFourThreadsFPS), n(python.pythonScaling) + "×",
          ],
        ])
  }

  private static func daskBatchTable(_ dask: DaskBatchResult) -> [String] {
    [
      "", "#### Python batch on Dask (the batch section's \(dask.images) photos, colour state)", "",
      "`framedial.batch(folder, out, state, client=client)` from `\(dask.python)` on a Dask "
        + "`LocalCluster(n_workers=2, threads_per_worker=1)` started once, against `framedial batch "
        + "--jobs 2`, quality \(BatchBenchmark.quality), taking turns for \(dask.roundRatios.count) rounds "
        + "(each round a new output folder); the ratio is the median of the rounds' ratios ("
        + dask.roundRatios.map { n($0) + "×" }.joined(separator: ", ") + ").",
      "",
    ]
      + table(
        ["", "images/s (median run)", "runs, s"],
        [
          [
            "framedial batch --jobs 2", n(dask.commandImagesPerSecond),
            dask.commandSeconds.map(n).joined(separator: ", "),
          ],
          [
            "framedial.batch on Dask", n(dask.daskImagesPerSecond),
            dask.daskSeconds.map(n).joined(separator: ", "),
          ],
        ]) + [""]
  }
}
