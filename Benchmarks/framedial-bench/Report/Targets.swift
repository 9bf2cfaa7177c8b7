import Measurement

/// The product's performance targets, checked against a run's measurements.
enum Targets {
  /// Two threads must give at least this much of one thread's throughput at 4K.
  static let twoThreadScaling = 1.7
  /// Recompile median and cache-hit median limits in microseconds.
  static let recompileMicroseconds = 50.0
  static let cacheHitMicroseconds = 5.0
  /// Latency p99 may be at most this many median frame times.
  static let latencyFrameTimes = 2.0
  /// Peak resident memory of the batch with two jobs, in megabytes.
  static let batchPeakMB = 400.0
  /// The colour state's batch throughput as a percentage of the floor's (decode + encode alone).
  static let colourOfFloorPercent = 90.0
  /// A 1080p colour frame from Python over the same frame from Swift (medians).
  static let pythonOverSwift = 1.1
  /// Python's four-thread scaling as a share of Swift's (the GIL is not held while a frame renders).
  static let pythonScalingShare = 0.9
  /// `framedial.batch` on a two-worker Dask LocalCluster: images per second over `framedial batch
  /// --jobs 2`'s.
  static let daskOverCommand = 0.9
  /// `--size 2048` throughput, colour state, over that of two `vipsthumbnail -s 2048` processes on the
  /// same JPEGs (issue 31).
  static let sizedOverVipsthumbnail = 1.2
  /// Display P3 photos kept in P3: time over converting them to sRGB.
  static let p3KeptOverSRGB = 1.1
  /// `framedial --version` over `vips --version`, wall time of a fresh process (issue 40).
  static let versionOverVips = 1.2
  /// A small photo's `framedial apply --size 256` over `vipsthumbnail -s 256`, wall time (issue 40).
  static let smallApplyOverVipsthumbnail = 1.0
  /// A HEIC of an HDR photo with its gain map kept over the same HEIC without it, wall time (issue 41).
  static let hdrPhotoKeptOverDropped = 1.15
  /// HEIC → HEIC throughput (libheif, the default effort) over x265 `slow`'s (`--effort small`, the
  /// setting of libvips's `heifsave`).
  static let heicOverSlow = 5.0
  /// HEIC → HEIC time per photo over JPEG → JPEG's, colour state.
  static let heicTimeOverJPEG = 12.0

  /// The studio's slider-to-displayed-frame latency p99 in a browser may be at most this many median
  /// frame times (the render and the frame's RGBA copy: the frame the page gets) of the same run, plus
  /// one display frame.
  static let browserRenderTimes = 3.0
  /// One display frame at 60 Hz, in milliseconds.
  static let displayFrameMs = 16.0

  /// `framedial video`'s wall time with x264 medium over ffmpeg's plain re-encode (the floor).
  static let videoOverFloor = 1.1
  /// `framedial video --encoder-preset ultrafast` frames per second over the README pipe's.
  static let videoOverPipe = 1.8
  /// `framedial video` on HLG kept HDR with the control values: wall time over ffmpeg's libx265
  /// re-encode of FrameDial's own output.
  static let hdrKeepOverFloor = 1.1
  /// `framedial video` on HLG kept HDR without controls: wall time over ffmpeg's libx265 re-encode of
  /// the clip.
  static let hdrKeepPlainOverFloor = 1.05
  /// CPU milliseconds of one 1080p HLG frame tone-mapped to SDR with the colour state, in one pass
  /// on one thread.
  static let hdrFrameCPUMilliseconds = 10.0
  /// Milliseconds of the studio's HDR frame at the iPhone 16 Pro viewfinder's size, as the studio
  /// runs it: one display frame at 60 Hz.
  static let studioHDRFrameMilliseconds = 16.7
  /// The unoptimized graph's wall time over the one pass's on a 1080p HLG frame kept HDR.
  static let hdrOnePassSpeedup = 3.0
  /// `framedial video --hdr sdr --codec h264` with the colour state: wall time over ffmpeg's zscale +
  /// tonemap chain's into the same libx264 settings (the controls and the tone mapping against the
  /// chain alone).
  static let hdrSDROverToneMap = 0.6

  /// Every target the measurements in `result` can be checked against, section by section.
  static func check(_ result: BenchmarkResult) -> [Target] {
    let order: [BenchmarkOptions.Section] = [
      .frames, .hdr, .compile, .python, .latency, .browser, .batch, .raw, .video, .startup,
      .hdrPhoto,
    ]
    return order.flatMap { check(result, section: $0) }
  }

  /// The targets of one section's measurements in `result` (none when the section did not run).
  static func check(_ result: BenchmarkResult, section: BenchmarkOptions.Section) -> [Target] {
    var targets: [Target] = []
    switch section {
    case .frames:
      for frame in result.frames ?? [] {
        let label = "\(frame.frame) \(frame.state), \(Format.count(frame.threads, "thread"))"
        targets.append(
          Target(
            "\(label): × memory pass", measured: frame.memoryPassRatio, .atMost,
            frame.memoryPassLimit, unit: "×"))
        if let limit = frame.unoptimizedSpeedupLimit, let speedup = frame.unoptimizedSpeedup {
          targets.append(
            Target(
              "\(label): faster than unoptimized", measured: speedup, .atLeast, limit, unit: "×")
          )
        }
      }
      for scaling in scalings(result.frames ?? []) {
        targets.append(
          Target(
            "4K \(scaling.state): 2-thread ÷ 1-thread throughput", measured: scaling.ratio,
            .atLeast,
            twoThreadScaling, unit: "×"))
      }
      if let yuv = result.yuv {
        targets.append(
          Target(
            "1080p colour: yuv420p render ÷ rgb24 render, median",
            measured:
              yuv.yuvRenderMilliseconds / yuv.rgbRenderMilliseconds, .atMost,
            YUVBenchmark.renderRatioLimit, unit: "×"))
        targets.append(
          Target(
            "1080p colour pipe (ffmpeg decode → frames → x264 ultrafast): --y4m ÷ rgb24 fps",
            measured: yuv.pipeRatio, .atLeast, YUVBenchmark.pipeSpeedupLimit,
            unit: "×"))
      }
    case .hdr:
      let rows = result.hdrYUV ?? []
      func row(_ which: HDRYUVBenchmark.Case) -> HDRYUVResult? {
        rows.first { $0.role == which.rawValue }
      }
      // Runs before the one-thread row had only the row on every core.
      if let sdr = row(.sdrOneThread) ?? row(.sdr) {
        let threads =
          sdr.role == HDRYUVBenchmark.Case.sdrOneThread.rawValue ? "one thread" : "every core"
        targets.append(
          Target(
            "1080p HLG frame tone-mapped to SDR with the colour state, on \(threads), CPU median",
            measured: sdr.cpuMilliseconds.median, .atMost, hdrFrameCPUMilliseconds, unit: "ms"))
      }
      if let studio = result.studioHDR?.first(where: {
        $0.order == StudioHDRBenchmark.Order.everyCore.rawValue
      }) {
        targets.append(
          Target(
            "studio HDR frame at the viewfinder's size (\(studio.width)×\(studio.height)), as the "
              + "studio runs it, median", measured: studio.milliseconds.median, .atMost,
            studioHDRFrameMilliseconds, unit: "ms"))
      }
      if let keep = row(.keep), let slow = row(.keepUnoptimized) {
        targets.append(
          Target(
            "1080p HLG frame kept HDR, colour state: unoptimized ÷ one pass, wall medians",
            measured: slow.milliseconds.median / keep.milliseconds.median, .atLeast,
            hdrOnePassSpeedup, unit: "×"))
      }
    case .compile:
      if let compile = result.compile {
        targets.append(
          Target(
            "recompile after one slider change, median", measured: compile.recompile.median,
            .atMost,
            recompileMicroseconds, unit: "µs"))
        targets.append(
          Target(
            "plan-cache hit, median", measured: compile.cacheHit.median, .atMost,
            cacheHitMicroseconds, unit: "µs"))
      }
    case .python:
      if let python = result.python {
        targets.append(
          Target(
            "1080p colour from Python ÷ from Swift, median", measured: python.medianRatio, .atMost,
            pythonOverSwift, unit: "×"))
        targets.append(
          Target(
            "Python 4-thread scaling ÷ Swift 4-thread scaling",
            measured: python.scalingShare, .atLeast, pythonScalingShare,
            unit: "×"))
      }
      if let dask = result.daskBatch {
        targets.append(
          Target(
            "framedial.batch on Dask ÷ framedial batch --jobs 2, images/s",
            measured: dask.medianRatio, .atLeast, daskOverCommand, unit: "×"))
      }
    case .latency:
      if let latency = result.latency?.first {
        let frameTime = latencyReferenceFrameTime(result)
        targets.append(
          Target(
            "slider-to-frame latency p99 ÷ median frame time (\(frameTime.source))",
            measured: latency.latency.p99 / frameTime.milliseconds, .atMost, latencyFrameTimes,
            unit: "×"))
      }
    case .browser:
      if let browser = result.browser {
        targets.append(
          Target(
            "studio slider-to-displayed-frame latency in headless Chromium, 1080p source, p99 "
              + "(limit: 3 × median frame, render + RGBA, \(Format.number(browser.frameP50)) ms + 16 ms)",
            measured: browser.latency.p99, .atMost, browser.latencyLimit, unit: "ms"))
      }
    case .heicDecode:
      break
    case .startup:
      for item in result.startup ?? [] {
        guard let ratio = item.ratio else { continue }
        let limit = item.name == "--version" ? versionOverVips : smallApplyOverVipsthumbnail
        targets.append(
          Target(
            "`\(item.framedialCommand)` ÷ `\(item.anchorCommand)`, wall time, median of rounds",
            measured: ratio, .atMost, limit, unit: "×"))
      }
    case .hdrPhoto:
      for item in result.hdrPhoto ?? [] {
        guard let ratio = item.ratio else { continue }
        targets.append(
          Target(
            "`\(item.framedialCommand)` ÷ `\(item.anchorCommand)`, wall time, median of rounds",
            measured: ratio, .atMost, hdrPhotoKeptOverDropped, unit: "×"))
      }
    case .batch:
      if let batch = result.batch?.first(where: { $0.jobs == 2 && $0.role == "colour" }) {
        targets.append(
          Target(
            "batch --jobs 2 peak resident memory", measured: batch.peakResidentMB, .atMost,
            batchPeakMB, unit: "MB"))
      }
      targets += batchComparisons(result.batch ?? []).map(\.target)
    case .raw:
      targets += rawComparisons(result.raw ?? []).map(\.target)
    case .video:
      targets += videoComparisons(result.video ?? []).map(\.target)
    }
    return targets
  }

  /// The batch comparisons measured in the same run, each with the role of the row it belongs to:
  /// colour ÷ floor, `--size` ÷ `vipsthumbnail` and P3 kept ÷ P3 to sRGB, each the median of the ratios of the rounds (both
  /// cases ran once a round, one after the other).
  static func batchComparisons(_ batch: [BatchResult]) -> [(role: String, target: Target)] {
    func times(_ role: BatchBenchmark.Case) -> [Double]? {
      batch.first { $0.role == role.rawValue && $0.jobs == BatchBenchmark.comparisonJobs }?
        .runSeconds
    }
    func imageCount(_ role: BatchBenchmark.Case) -> Int? {
      batch.first { $0.role == role.rawValue && $0.jobs == BatchBenchmark.comparisonJobs }?.images
    }
    /// The median over rounds of `first`'s throughput over `second`'s.
    func ratio(_ first: BatchBenchmark.Case, _ second: BatchBenchmark.Case) -> Double? {
      guard let one = times(first), let two = times(second), one.count == two.count, !one.isEmpty
      else { return nil }
      return Statistics.median(sorted: zip(one, two).map { $1 / $0 }.sorted())
    }
    var comparisons: [(role: String, target: Target)] = []
    if let colourOfFloor = ratio(.colour, .floor) {
      comparisons.append(
        (
          BatchBenchmark.Case.colour.rawValue,
          Target(
            "batch --jobs 2: colour images/s as % of the floor's (decode + encode), median of rounds",
            measured: 100 * colourOfFloor, .atLeast, colourOfFloorPercent, unit: "%")
        ))
    }
    if let sizedOverThumbnail = ratio(.colourSized, .vipsthumbnail) {
      comparisons.append(
        (
          BatchBenchmark.Case.colourSized.rawValue,
          Target(
            "batch --jobs 2 --size \(BatchBenchmark.webSize): images/s ÷ two vipsthumbnail processes', median of rounds",
            measured: sizedOverThumbnail, .atLeast, sizedOverVipsthumbnail, unit: "×")
        ))
    }
    // The sRGB conversion's throughput over P3 kept's is P3 kept's time over the conversion's.
    if let keptOverConverted = ratio(.p3ToSRGB, .p3Kept) {
      comparisons.append(
        (
          BatchBenchmark.Case.p3Kept.rawValue,
          Target(
            "batch --jobs 2, Display P3 photos: time kept in P3 ÷ time converted to sRGB, median of rounds",
            measured: keptOverConverted, .atMost, p3KeptOverSRGB, unit: "×")
        ))
    }
    if let heicRatio = ratio(.heic, .heicSmall) {
      comparisons.append(
        (
          BatchBenchmark.Case.heic.rawValue,
          Target(
            "batch --jobs 2: HEIC → HEIC images/s ÷ x265 slow's (--effort small, libvips heifsave's "
              + "setting), median of rounds",
            measured: heicRatio, .atLeast, heicOverSlow, unit: "×")
        ))
    }
    if let heic = times(.heic), let jpeg = times(.colour), heic.count == jpeg.count, !heic.isEmpty,
      let heicImages = imageCount(.heic), let jpegImages = imageCount(.colour)
    {
      // Time per photo, since the HEIC cases convert fewer photos.
      let perPhoto = zip(heic, jpeg).map {
        ($0 / Double(heicImages)) / ($1 / Double(jpegImages))
      }
      comparisons.append(
        (
          BatchBenchmark.Case.heic.rawValue,
          Target(
            "batch --jobs 2: HEIC → HEIC time per photo ÷ JPEG → JPEG's, colour state, median of rounds",
            measured: Statistics.median(sorted: perPhoto.sorted()), .atMost, heicTimeOverJPEG,
            unit: "×")
        ))
    }
    return comparisons
  }

  /// The raw batch's images per second against `dcraw_emu`'s (at least as fast) and, when it was
  /// measured, `darktable-cli`'s (at least twice as fast), and `--size 2048`'s
  /// against full size (LibRaw's half-size development: at least twice as fast), each the median of
  /// the ratios of the rounds; with the role of the row each belongs to and what it is measured against.
  static func rawComparisons(_ raw: [BatchResult]) -> [(
    role: String, against: String, target: Target
  )] {
    func times(_ role: RawBatchBenchmark.Case) -> [Double]? {
      raw.first { $0.role == role.rawValue }?.runSeconds
    }
    func ratio(_ first: RawBatchBenchmark.Case, _ second: RawBatchBenchmark.Case) -> Double? {
      guard let one = times(first), let two = times(second), one.count == two.count, !one.isEmpty
      else { return nil }
      return Statistics.median(sorted: zip(one, two).map { $1 / $0 }.sorted())
    }
    var comparisons: [(role: String, against: String, target: Target)] = []
    if let overLibRaw = ratio(.raw, .dcrawEmu) {
      comparisons.append(
        (
          RawBatchBenchmark.Case.raw.rawValue, "dcraw_emu",
          Target(
            "raw batch --jobs 2: images/s ÷ dcraw_emu's, median of rounds", measured: overLibRaw,
            .atLeast, 1.0, unit: "×")
        ))
    }
    if let overDarktable = ratio(.raw, .darktable) {
      comparisons.append(
        (
          RawBatchBenchmark.Case.raw.rawValue, "darktable-cli",
          Target(
            "raw batch --jobs 2: images/s ÷ darktable-cli's, median of rounds",
            measured: overDarktable, .atLeast, 2.0, unit: "×")
        ))
    }
    if let sizedOverFull = ratio(.rawSized, .raw) {
      comparisons.append(
        (
          RawBatchBenchmark.Case.rawSized.rawValue, "full size",
          Target(
            "raw batch --jobs 2 --size \(BatchBenchmark.webSize): images/s ÷ full size's, median of rounds",
            measured: sizedOverFull, .atLeast, 2.0, unit: "×")
        ))
    }
    return comparisons
  }

  /// The video comparisons measured in the same run, each with the role of the row it belongs to:
  /// framedial's wall time over the floor's at medium, and framedial's frames per second over the
  /// pipe's at ultrafast, each the median of the ratios of the rounds.
  static func videoComparisons(_ video: [VideoResult]) -> [(role: String, target: Target)] {
    typealias Case = VideoBenchmark.Case
    func ratio(_ first: Case, _ second: Case, on clip: VideoBenchmark.Clip = .pan) -> Double? {
      videoRatio(video, first, second, on: clip)
    }
    var comparisons: [(role: String, target: Target)] = []
    if let overFloor = ratio(.colour, .floor) {
      comparisons.append(
        (
          Case.colour.rawValue,
          Target(
            "video 1080p x264 medium: framedial wall time ÷ ffmpeg re-encode's, median of rounds",
            measured: overFloor, .atMost, videoOverFloor, unit: "×")
        ))
    }
    // Frames per second over the pipe's is the pipe's wall time over framedial's.
    if let overPipe = ratio(.pipe, .colourFast) {
      comparisons.append(
        (
          Case.colourFast.rawValue,
          Target(
            "video 1080p x264 ultrafast: framedial fps ÷ README pipe's, median of rounds",
            measured: overPipe, .atLeast, videoOverPipe, unit: "×")
        ))
    }
    // The HLG targets on each HLG clip: the pan's names as they were, the pattern's naming it.
    for clip in [VideoBenchmark.Clip.hlgPan, .hlgPattern] {
      let name = clip == .hlgPattern ? "video 1080p HLG testsrc2" : "video 1080p HLG"
      /// `row`'s wall time over `floor`'s on this clip, at most `limit`, as a target of `row`'s.
      func compare(_ row: Case, over floor: Case, _ what: String, limit: Double) {
        guard let measured = ratio(row, floor, on: clip) else { return }
        comparisons.append(
          (
            VideoBenchmark.role(row, on: clip),
            Target(
              "\(name) \(what), median of rounds", measured: measured, .atMost, limit, unit: "×")
          ))
      }
      compare(
        .hdrKeepPlain, over: .hdrFloor,
        "x265 medium, kept HDR, no controls: framedial wall time ÷ ffmpeg re-encode's",
        limit: hdrKeepPlainOverFloor)
      compare(
        .hdrKeep, over: .hdrKeepFloor,
        "x265 medium, kept HDR with the control values: framedial wall time ÷ ffmpeg's decode of "
          + "the clip and encode of framedial's picture", limit: hdrKeepOverFloor)
      compare(
        .hdrSDR, over: .hdrToneMapFloor,
        "to SDR x264 medium, with the control values: framedial wall time ÷ ffmpeg "
          + "zscale+tonemap's", limit: hdrSDROverToneMap)
    }
    return comparisons
  }

  /// The median over rounds of `first`'s wall time over `second`'s, on `clip`.
  static func videoRatio(
    _ video: [VideoResult], _ first: VideoBenchmark.Case, _ second: VideoBenchmark.Case,
    on clip: VideoBenchmark.Clip
  ) -> Double? {
    func times(_ which: VideoBenchmark.Case) -> [Double]? {
      let role = VideoBenchmark.role(which, on: clip)
      return video.first { $0.role == role }?.runSeconds
    }
    guard let one = times(first), let two = times(second), one.count == two.count, !one.isEmpty
    else { return nil }
    return Statistics.median(sorted: zip(one, two).map { $0 / $1 }.sorted())
  }

  /// On `clip`, ffmpeg's decode of the HLG clip and libx264 encode of FrameDial's own SDR picture over
  /// the zscale + tonemap chain's wall time (context for the `--hdr sdr` target, not a target: the
  /// least that target's ratio can be, however fast FrameDial's tone mapping), the median of the
  /// rounds' ratios.
  static func hdrSDRFloorOverToneMap(_ video: [VideoResult], on clip: VideoBenchmark.Clip)
    -> Double?
  {
    videoRatio(video, .hdrSDRFloor, .hdrToneMapFloor, on: clip)
  }

  /// `framedial video --encoder-preset ultrafast` frames per second over ffmpeg's plain re-encode at
  /// that preset (context for the pipe target, not a target), the median of the rounds' ratios.
  static func videoOverFastFloor(_ video: [VideoResult]) -> Double? {
    func times(_ role: VideoBenchmark.Case) -> [Double]? {
      video.first { $0.role == role.rawValue }?.runSeconds
    }
    guard let framedial = times(.colourFast), let floor = times(.floorFast),
      framedial.count == floor.count, !floor.isEmpty
    else { return nil }
    return Statistics.median(sorted: zip(floor, framedial).map { $0 / $1 }.sorted())
  }

  /// 4K throughput with two threads over one, per state (identity is a copy in one band per thread).
  static func scalings(_ frames: [FrameResult]) -> [(state: String, ratio: Double)] {
    frames.filter { $0.frame == "4K" && $0.threads == 1 }.compactMap {
      one in
      guard
        let two = frames.first(where: {
          $0.frame == "4K" && $0.threads == 2 && $0.state == one.state
        })
      else { return nil }
      return (one.state, one.optimized.median / two.optimized.median)
    }
  }

  /// The median frame time latency is compared with: the frame benchmark's for the same frame, state and
  /// threads when it ran, else the frames rendered during the gesture.
  static func latencyReferenceFrameTime(_ result: BenchmarkResult) -> (
    milliseconds: Double, source: String
  ) {
    if let latency = result.latency?.first,
      let frame = result.frames?.first(where: {
        $0.frame == latency.frame && $0.threads == latency.threads
          && $0.state == "colour + mixing"
      })
    {
      return (
        frame.optimized.median,
        "\(frame.frame) colour, \(Format.count(frame.threads, "thread")), steady state"
      )
    }
    return (result.latency?.first?.frameTime.median ?? .nan, "frames during the gesture")
  }
}
