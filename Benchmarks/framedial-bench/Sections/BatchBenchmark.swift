import Foundation
import FrameDial
import Measurement
import Vips

/// The batch path's throughput and memory on a folder of generated 12-megapixel JPEGs.
struct BatchResult: Sendable, Codable {
  /// What the row measures (see ``BatchBenchmark/Case``).
  var role: String
  /// Parallel jobs.
  var jobs: Int
  /// Images converted and the median wall time of the runs in seconds.
  var images: Int
  var seconds: Double
  /// Images per second: the median over the runs.
  var imagesPerSecond: Double
  /// How many times the case ran (the cases of a comparison take turns, one run of each a round).
  var runs: Int
  /// The wall time of each run in seconds, in round order.
  var runSeconds: [Double]
  /// The highest peak resident set of the process over the runs, in megabytes (10^6 bytes).
  var peakResidentMB: Double
  /// How the images went through.
  var method: String
  /// The CPU seconds of each run, user and system, of the processes and the children they waited for,
  /// in round order: the work done, which a busy shared machine does not inflate as it does wall time.
  var runCPUSeconds: [Double]? = nil

  /// The median run's CPU seconds per image.
  var cpuSecondsPerImage: Double? {
    guard let cpu = runCPUSeconds, !cpu.isEmpty, images > 0 else { return nil }
    return Statistics.median(sorted: cpu.sorted()) / Double(images)
  }
}

/// Runs the `framedial` binary next to this executable over a generated folder.
struct BatchBenchmark {
  var options: BenchmarkOptions
  var progress: (String) -> Void

  /// The control values, as `--set` arguments.
  static let setArguments = [
    "--set", "ev=0.5", "--set", "wb=tungsten", "--set", "contrast=1.2", "--set", "saturation=1.3",
  ]
  /// Generated image size and JPEG quality (also the quality every case writes).
  static let (imageWidth, imageHeight, quality) = (4000, 3000, 90)
  /// The longest side of the web-export cases.
  static let webSize = 2048
  /// The jobs of the comparison cases (the machine's 2 cores).
  static let comparisonJobs = 2
  /// The generated images' description for the report.
  static let inputDescription = """
    4000×3000 JPEG, quality 90: the repository's sample photos (rocket, coffee, chelsea, astronaut, \
    grace_hopper in turn) centre-cropped to 4:3, enlarged with libvips Lanczos 3, plus Gaussian grain \
    (σ = 4 code values) so the codec sees photo-like detail
    """

  /// One way through the folder.
  enum Case: String, CaseIterable {
    /// The colour state.
    case colour
    /// Decode and encode alone: the identity state, through the same reader, sRGB handling and writer.
    case floor
    /// The colour state with `--size 2048`.
    case colourSized = "colour --size"
    /// libvips's own command-line thumbnailer at the same size: two processes at once, each given half
    /// of the photos.
    case vipsthumbnail
    /// The colour state on the same photos tagged Display P3, kept in P3 (the default `--profile keep`).
    case p3Kept = "colour, P3 kept"
    /// The same, converted to sRGB (`--profile srgb`).
    case p3ToSRGB = "colour, P3 → sRGB"
    /// HEICs made from the same photos into HEIC, colour state, at FrameDial's defaults.
    case heic = "heic → heic"
    /// The same with `--effort balanced`.
    case heicBalanced = "heic → heic balanced"
    /// The same with `--effort small`: x265 `slow`, the setting of libvips 8.14's `heifsave`, with
    /// which FrameDial wrote HEIC before it wrote through libheif.
    case heicSmall = "heic → heic small"
  }

  /// The HEIC quality every HEIC case writes (FrameDial's default).
  static let heicQuality = 60
  /// The number of photos in the HEIC cases (x265 `slow` takes most of a minute for each).
  static let heicImages = 4

  func run() throws -> [BatchResult] {
    let binary = try Self.framedialBinary()
    let input = try generateInputs()
    let p3Input = try taggedP3(input)
    let heicInput = try generateHEICInputs(binary, from: Array(input.prefix(Self.heicImages)))
    var results = [try measure(.colour, binary, input, jobs: 1)]
    // The comparison cases take turns, each run in a new order, so a busy moment on the shared
    // machine falls on all of them alike; each row is the median of its runs.
    let cases: [Case] = [
      .floor, .colour, .colourSized, .vipsthumbnail, .p3Kept, .p3ToSRGB, .heic, .heicBalanced,
      .heicSmall,
    ]
    let runs = options.quick ? 3 : 5
    var seconds: [Case: [Double]] = [:]
    var cpuSeconds: [Case: [Double]] = [:]
    var peaks: [Case: Double] = [:]
    for round in 0..<runs {
      for index in cases.indices {
        let which = cases[(index + round) % cases.count]
        let files =
          [.p3Kept, .p3ToSRGB].contains(which)
          ? p3Input : [.heic, .heicBalanced, .heicSmall].contains(which) ? heicInput : input
        let result = try measure(which, binary, files, jobs: Self.comparisonJobs)
        seconds[which, default: []].append(result.seconds)
        cpuSeconds[which, default: []] += result.runCPUSeconds ?? []
        peaks[which] = max(peaks[which] ?? 0, result.peakResidentMB)
      }
    }
    for which in cases {
      let times = seconds[which] ?? []
      let count =
        [.heic, .heicBalanced, .heicSmall].contains(which) ? heicInput.count : input.count
      let rates = times.map { Double(count) / $0 }.sorted()
      results.append(
        BatchResult(
          role: which.rawValue, jobs: Self.comparisonJobs, images: count,
          seconds: Statistics.median(sorted: times.sorted()),
          imagesPerSecond: Statistics.median(sorted: rates), runs: times.count, runSeconds: times,
          peakResidentMB: peaks[which] ?? .nan,
          method: Self.method(which, jobs: Self.comparisonJobs), runCPUSeconds: cpuSeconds[which]))
    }
    return results
  }

  /// One run of `which` over `input` into a new temporary folder.
  private func measure(_ which: Case, _ binary: String, _ input: [String], jobs: Int) throws
    -> BatchResult
  {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-out-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: output) }
    progress("batch: \(options.batchImages) images, \(Self.method(which, jobs: jobs))")
    let folder = URL(fileURLWithPath: input[0]).deletingLastPathComponent().path
    let quality = ["--quality", String(Self.quality)]
    let executable: String
    let arguments: [String]
    switch which {
    case .heic, .heicBalanced, .heicSmall:
      executable = binary
      arguments =
        ["batch", folder, "-o", output.path, "--jobs", String(jobs)]
        + ["--quality", String(Self.heicQuality)] + Self.setArguments
        + (which == .heicBalanced ? ["--effort", "balanced"] : [])
        + (which == .heicSmall ? ["--effort", "small"] : [])
    case .vipsthumbnail:
      let thumbnailer = try Self.vipsthumbnailBinary()
      let halves = [0, 1].map { half in
        ([
          thumbnailer, "-s", String(Self.webSize), "-o", output.path + "/%s.jpg[Q=\(Self.quality)]",
        ]
          + stride(from: half, to: input.count, by: 2).map { input[$0] })
          .map(ChildProcess.quoted).joined(separator: " ")
      }
      executable = "/bin/sh"
      arguments = [
        "-c", "\(halves[0]) & first=$!; \(halves[1]) & second=$!; wait $first && wait $second",
      ]
    case .floor:
      executable = binary
      arguments = ["batch", folder, "-o", output.path, "--jobs", String(jobs)] + quality
    case .colour, .colourSized, .p3Kept, .p3ToSRGB:
      executable = binary
      arguments =
        ["batch", folder, "-o", output.path, "--jobs", String(jobs)] + quality + Self.setArguments
        + (which == .colourSized ? ["--size", String(Self.webSize)] : [])
        + (which == .p3ToSRGB ? ["--profile", "srgb"] : [])
    }
    let exit = try ChildProcess.runMeasuringPeak(executable, arguments)
    guard exit.code == 0, let seconds = exit.seconds else {
      throw ChildProcessError("\(Self.method(which, jobs: jobs)) failed (exit \(exit.code))")
    }
    return BatchResult(
      role: which.rawValue, jobs: jobs, images: input.count, seconds: seconds,
      imagesPerSecond: Double(input.count) / seconds, runs: 1, runSeconds: [seconds],
      peakResidentMB: Double(exit.peakResidentBytes) / 1e6, method: Self.method(which, jobs: jobs),
      runCPUSeconds: [exit.cpuSeconds])
  }

  /// The command line of a case, for the report.
  static func method(_ which: Case, jobs: Int) -> String {
    switch which {
    case .colour: "framedial batch --jobs \(jobs), colour state"
    case .floor: "framedial batch --jobs \(jobs), identity state (decode + encode only)"
    case .colourSized: "framedial batch --jobs \(jobs) --size \(webSize), colour state"
    case .vipsthumbnail:
      "two vipsthumbnail -s \(webSize) -o DIR/%s.jpg[Q=\(quality)] processes at once, half the photos each (libvips CLI)"
    case .p3Kept: "framedial batch --jobs \(jobs), colour state, Display P3 inputs kept in P3"
    case .p3ToSRGB:
      "framedial batch --jobs \(jobs) --profile srgb, colour state, Display P3 inputs to sRGB"
    case .heic:
      "framedial batch --jobs \(jobs) --quality \(heicQuality), colour state, HEIC in and out (libheif, "
        + "default --effort \(EncodingEffort.standard.rawValue): \(EncodingEffort.standard.x265Description))"
    case .heicBalanced:
      "framedial batch --jobs \(jobs) --quality \(heicQuality) --effort balanced, colour state, HEIC in and "
        + "out (\(EncodingEffort.balanced.x265Description))"
    case .heicSmall:
      "framedial batch --jobs \(jobs) --quality \(heicQuality) --effort small, colour state, HEIC in and "
        + "out (\(EncodingEffort.small.x265Description): libvips heifsave's setting)"
    }
  }

  /// The HEICs of the HEIC cases, made once from `photos` with `framedial batch --format heic`
  /// (quality 90) and kept in the temporary folder for later runs.
  func generateHEICInputs(_ binary: String, from photos: [String]) throws -> [String] {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-batch-heic-v1-\(photos.count)")
    let paths = photos.map {
      folder.appendingPathComponent(
        URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent + ".heic"
      ).path
    }
    if paths.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) { return paths }
    progress("batch: generating \(photos.count) HEICs in \(folder.path)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let exit = try ChildProcess.runMeasuringPeak(
      binary, ["batch"] + photos + ["-o", folder.path, "--format", "heic", "--quality", "90", "-y"])
    guard exit.code == 0 else {
      throw ChildProcessError("making the benchmark's HEICs failed (exit \(exit.code))")
    }
    return paths
  }

  /// libvips's `vipsthumbnail`, found on the PATH.
  static func vipsthumbnailBinary() throws -> String {
    try ChildProcess.libvipsTool("vipsthumbnail")
  }

  /// The generated JPEGs (made once, kept in the temporary folder for later runs).
  func generateInputs() throws -> [String] {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-batch-v1-\(options.batchImages)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let samples = ["rocket.jpg", "coffee.png", "chelsea.png", "astronaut.png", "grace_hopper.jpg"]
    let sampleFolder = URL(fileURLWithPath: options.imagePath).deletingLastPathComponent()
    var paths: [String] = []
    for index in 0..<options.batchImages {
      let path = folder.appendingPathComponent(String(format: "image-%02d.jpg", index)).path
      paths.append(path)
      if FileManager.default.fileExists(atPath: path) { continue }
      progress("batch: generating \(path)")
      let sample = sampleFolder.appendingPathComponent(samples[index % samples.count]).path
      let photo = try SampleFrame.enlargedPhoto(
        sample, width: Self.imageWidth, height: Self.imageHeight)
      let grain = try Operation.call(
        "gaussnoise",
        [
          "width": .int(Self.imageWidth), "height": .int(Self.imageHeight), "sigma": .double(4),
          "mean": .double(0),
        ]
      ).image()
      let grainy = try Operation.call("add", ["left": .image(photo), "right": .image(grain)])
        .image().cast(to: .uchar)
      let partial = FileManager.default.temporaryDirectory
        .appendingPathComponent("framedial-bench-\(UUID().uuidString).jpg").path
      try grainy.write(
        to: partial, options: SaveOptions(quality: Self.quality, keepMetadata: false))
      try FileManager.default.moveItem(atPath: partial, toPath: path)
    }
    return paths
  }

  /// The generated JPEGs again, tagged with libvips's Display P3 profile (pixels as they are), in a
  /// folder of their own (made once).
  private func taggedP3(_ input: [String]) throws -> [String] {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-batch-p3-v1-\(options.batchImages)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let profile = try Vips.builtinICCProfile("p3")
    return try input.map { source in
      let path = folder.appendingPathComponent(URL(fileURLWithPath: source).lastPathComponent).path
      if FileManager.default.fileExists(atPath: path) { return path }
      progress("batch: tagging \(path) Display P3")
      let partial = FileManager.default.temporaryDirectory
        .appendingPathComponent("framedial-bench-\(UUID().uuidString).jpg").path
      try Image(contentsOf: source).editingMetadata { $0.setBlob(Image.iccProfileField, profile) }
        .write(to: partial, options: SaveOptions(quality: Self.quality))
      try FileManager.default.moveItem(atPath: partial, toPath: path)
      return path
    }
  }

  /// The `framedial` executable in the same folder as this benchmark.
  static func framedialBinary() throws -> String {
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let path = me.deletingLastPathComponent().appendingPathComponent("framedial").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw ChildProcessError(
        "no framedial binary next to the benchmark at \(path); build the package first")
    }
    return path
  }
}
