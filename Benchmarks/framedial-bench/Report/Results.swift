import Measurement

/// Everything one run measured: the document `--json` prints and the Markdown report reads.
struct BenchmarkResult: Sendable, Codable {
  /// The machine.
  var machine: Machine
  /// True for a `--quick` run.
  var quick: Bool
  /// How the frames were made.
  var frameSource: String
  /// Timed frames per optimized and per unoptimized case, and warm-up frames per case of each.
  var framesPerCase: Int
  var unoptimizedFramesPerCase: Int
  var warmupFrames: Int
  var unoptimizedWarmupFrames: Int
  /// The CPU code path FrameDial's C kernels ran (``KernelPath``'s name: scalar, avx2, avx512).
  var kernelPath: String?
  /// Per-frame results, when measured.
  var frames: [FrameResult]?
  /// YUV frames at 1080p: render times and whole-pipe rates (with the frames section).
  var yuv: YUVResult?
  /// 16-bit frames in sRGB, HLG and PQ, when measured.
  var hdr: [HDRFrameResult]?
  /// 1080p yuv420p10le HLG frames kept HDR and tone-mapped to SDR (with the hdr section).
  var hdrYUV: [HDRYUVResult]?
  /// `framedial studio`'s work on frames of the 1080p HLG clip in its order and the one it replaced,
  /// and the player's decode and conversion to rgb48le, milliseconds per frame (with the hdr section).
  var studioHDR: [StudioHDRResult]?
  var studioHDRDecode: Summary?
  /// Compile costs, when measured.
  var compile: CompileResult?
  /// Slider-to-frame latency, when measured: one run per renderer restart window, the default first.
  var latency: [LatencyResult]?
  /// Batch throughput and memory, when measured.
  var batch: [BatchResult]?
  /// How the batch inputs were made.
  var batchInput: String?
  /// HEIC decode times with libde265 and with FFmpeg's HEVC decoder, when measured.
  var heicDecode: [HEICDecodeResult]?
  /// Which HEICs the decode section decoded.
  var heicDecodeInput: String?
  /// Batch throughput on camera raws against LibRaw's own developer, when measured.
  var raw: [BatchResult]?
  /// How the raw inputs were made.
  var rawInput: String?
  /// The same frame rendered from Python and from Swift, when measured (and Python has `framedial`).
  var python: PythonResult?
  /// `framedial.batch` on a Dask LocalCluster against `framedial batch --jobs 2`, when measured (and
  /// Python has `framedial` and Dask distributed).
  var daskBatch: DaskBatchResult?
  /// `framedial video` against ffmpeg, when measured.
  var video: [VideoResult]?
  /// How the video clip was made.
  var videoInput: String?
  /// How the HLG video clip was made.
  var hdrVideoInput: String?
  /// How the `testsrc2` HLG clip was made.
  var hlgPatternInput: String?
  /// `framedial --version` and a small photo's `apply` against libvips's own commands, when measured.
  var startup: [CommandPairResult]?
  /// How the small photo was made.
  var startupInput: String?
  /// An HDR HEIC written with its gain map kept and with it dropped, when measured.
  var hdrPhoto: [CommandPairResult]?
  /// How the HDR photo was made.
  var hdrPhotoInput: String?
  /// `framedial studio`'s page in headless Chromium, when measured (and Chromium and Selenium are there).
  var browser: BrowserResult?
  /// Every target checked.
  var targets: [Target] = []
}
