import BenchmarkSupport
import Foundation
import Vips

/// The batch path's throughput and memory on a folder of generated 12-megapixel JPEGs.
struct BatchResult: Sendable, Codable {
  /// Parallel jobs.
  var jobs: Int
  /// Images converted and the wall time in seconds.
  var images: Int
  var seconds: Double
  /// Images per second.
  var imagesPerSecond: Double
  /// The peak resident set of the `framedial batch` process, in megabytes (10^6 bytes).
  var peakResidentMB: Double
  /// How the images went through.
  var method: String
}

/// Runs the `framedial` binary next to this executable over a generated folder.
struct BatchBenchmark {
  var options: BenchmarkOptions
  var progress: (String) -> Void

  /// The control values, as `--set` arguments.
  static let setArguments = [
    "--set", "ev=0.5", "--set", "wb=tungsten", "--set", "contrast=1.2", "--set", "saturation=1.3",
  ]
  /// Generated image size and JPEG quality.
  static let (imageWidth, imageHeight, quality) = (4000, 3000, 90)
  /// The generated images' description for the report.
  static let inputDescription = """
    4000×3000 JPEG, quality 90: the repository's sample photos (rocket, coffee, chelsea, astronaut, \
    grace_hopper in turn) centre-cropped to 4:3, enlarged with libvips Lanczos 3, plus Gaussian grain \
    (σ = 4 code values) so the codec sees photo-like detail
    """

  func run() throws -> [BatchResult] {
    let binary = try Self.framedialBinary()
    let input = try generateInputs()
    var results: [BatchResult] = []
    for jobs in [1, 2] {
      let output = FileManager.default.temporaryDirectory
        .appendingPathComponent("framedial-bench-out-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: output) }
      progress("batch: \(options.batchImages) images, --jobs \(jobs)")
      results.append(try batchCommand(binary, input, output, jobs: jobs))
    }
    return results
  }

  /// `framedial batch IN -o OUT --set … --jobs N`, one child.
  private func batchCommand(_ binary: String, _ input: [String], _ output: URL, jobs: Int) throws
    -> BatchResult
  {
    let folder = URL(fileURLWithPath: input[0]).deletingLastPathComponent().path
    let arguments =
      ["batch", folder, "-o", output.path] + Self.setArguments + ["--jobs", String(jobs)]
    let exit = try ChildProcess.runMeasuringPeak(binary, arguments)
    guard exit.code == 0, let seconds = exit.seconds else {
      throw ChildProcessError("framedial batch failed (exit \(exit.code))")
    }
    return BatchResult(
      jobs: jobs, images: input.count, seconds: seconds,
      imagesPerSecond: Double(input.count) / seconds,
      peakResidentMB: Double(exit.peakResidentBytes) / 1e6,
      method: "framedial batch --jobs \(jobs) (one process)")
  }

  /// The generated JPEGs (made once, kept in the temporary folder for later runs).
  private func generateInputs() throws -> [String] {
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
