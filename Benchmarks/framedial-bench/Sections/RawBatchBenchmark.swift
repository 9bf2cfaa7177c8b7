import Foundation
import Measurement
import Vips

/// The batch path on 24-megapixel DNGs: FrameDial developing raws (full size and `--size 2048`, colour
/// state) against LibRaw's own developer, `dcraw_emu -T`, and darktable's `darktable-cli` (when
/// installed), two files at a time.
struct RawBatchBenchmark {
  var options: BenchmarkOptions
  var progress: (String) -> Void

  /// Generated raw size (24 megapixels) and levels.
  static let (rawWidth, rawHeight, blackLevel, whiteLevel) = (6000, 4000, 1024, 16383)
  /// The as-shot neutral the generated raws carry (a camera with weak red and blue).
  static let neutral: [Double] = [0.5, 1, 0.7]
  /// The generated raws' description for the report.
  static let inputDescription = """
    6000×4000 Bayer DNGs (RGGB, 14-bit codes above a black level of 1024 in 16-bit samples, \
    uncompressed, 48 MB each, as-shot neutral 0.5 1 0.7, sRGB's matrix as the camera's): the batch \
    section's sample photos enlarged with libvips Lanczos 3, linearised and sampled through the mosaic
    """

  /// One way through the folder.
  enum Case: String, CaseIterable {
    /// `framedial batch`, colour state, full size.
    case raw
    /// The same with `--size 2048` (LibRaw's half-size development).
    case rawSized = "raw --size"
    /// LibRaw's own developer, no colour controls: AHD, 16-bit linear TIFF like FrameDial's input.
    case dcrawEmu = "dcraw_emu"
    /// darktable 4.2's command-line exporter, default pipeline, JPEG; measured only when installed.
    case darktable = "darktable-cli"
  }

  /// Where `darktable-cli` is, or nil when it is not installed (`apt-get install darktable`).
  static var darktableCLI: String? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    return folders.map { "\($0)/darktable-cli" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  func run() throws -> [BatchResult] {
    let binary = try BatchBenchmark.framedialBinary()
    let input = try generateInputs()
    var cases = Case.allCases
    if Self.darktableCLI == nil {
      cases.removeAll { $0 == .darktable }
      progress("raw: darktable-cli skipped — not installed (apt-get install darktable)")
    }
    let runs = options.quick ? 3 : 5
    var seconds: [Case: [Double]] = [:]
    var cpuSeconds: [Case: [Double]] = [:]
    var peaks: [Case: Double] = [:]
    for round in 0..<runs {
      for index in cases.indices {
        let which = cases[(index + round) % cases.count]
        let (time, cpu, peak) = try measure(which, binary, input)
        seconds[which, default: []].append(time)
        cpuSeconds[which, default: []].append(cpu)
        peaks[which] = max(peaks[which] ?? 0, peak)
      }
    }
    return cases.map { which in
      let times = seconds[which] ?? []
      return BatchResult(
        role: which.rawValue, jobs: BatchBenchmark.comparisonJobs, images: input.count,
        seconds: Statistics.median(sorted: times.sorted()),
        imagesPerSecond: Statistics.median(sorted: times.map { Double(input.count) / $0 }.sorted()),
        runs: times.count, runSeconds: times, peakResidentMB: peaks[which] ?? .nan,
        method: Self.method(which), runCPUSeconds: cpuSeconds[which])
    }
  }

  /// The command line of a case, for the report.
  static func method(_ which: Case) -> String {
    let jobs = BatchBenchmark.comparisonJobs
    return switch which {
    case .raw: "framedial batch --jobs \(jobs), colour state, JPEG"
    case .rawSized:
      "framedial batch --jobs \(jobs) --size \(BatchBenchmark.webSize), colour state, JPEG"
    case .dcrawEmu: "xargs -P \(jobs) dcraw_emu -T -4 -W -w -o 1 -q 3 -g 1 1 (LibRaw 16-bit TIFF)"
    case .darktable:
      "xargs -P \(jobs) darktable-cli IN IN.jpg --core --library :memory: --configdir IN.config "
        + "(default pipeline, JPEG)"
    }
  }

  /// One run of `which`: its wall time, its CPU seconds (user and system, of the process and the
  /// children it waited for) and its peak resident memory in megabytes.
  private func measure(_ which: Case, _ binary: String, _ input: [String]) throws -> (
    Double, Double, Double
  ) {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-raw-out-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: output) }
    progress("raw: \(input.count) images, \(Self.method(which))")
    let jobs = String(BatchBenchmark.comparisonJobs)
    let folder = URL(fileURLWithPath: input[0]).deletingLastPathComponent().path
    let executable: String
    let arguments: [String]
    switch which {
    case .raw, .rawSized:
      executable = binary
      arguments =
        ["batch", folder, "-o", output.path, "--jobs", jobs, "--quality", "90"]
        + BatchBenchmark.setArguments
        + (which == .rawSized ? ["--size", String(BatchBenchmark.webSize)] : [])
    case .dcrawEmu, .darktable:
      // Both write beside each input: work on links in the output folder.
      for path in input {
        let link = output.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: path)
      }
      let list = output.appendingPathComponent("list.txt")
      let links = input.map {
        output.appendingPathComponent(URL(fileURLWithPath: $0).lastPathComponent).path
      }
      try (links.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
      executable = "/usr/bin/xargs"
      if which == .dcrawEmu {
        arguments = [
          "-a", list.path, "-P", jobs, "-n", "1", "dcraw_emu", "-T", "-4", "-W", "-w", "-o", "1",
          "-q", "3", "-g", "1", "1",
        ]
      } else {
        // Each process its own configuration folder: darktable locks the one it uses.
        arguments = [
          "-a", list.path, "-P", jobs, "-I", "{}", Self.darktableCLI ?? "darktable-cli", "{}",
          "{}.jpg", "--core", "--library", ":memory:", "--configdir", "{}.config",
        ]
      }
    }
    let exit = try ChildProcess.runMeasuringPeak(executable, arguments)
    guard exit.code == 0, let seconds = exit.seconds else {
      throw ChildProcessError("\(Self.method(which)) failed (exit \(exit.code))")
    }
    return (seconds, exit.cpuSeconds, Double(exit.peakResidentBytes) / 1e6)
  }

  /// The generated DNGs (made once, kept in the temporary folder for later runs).
  private func generateInputs() throws -> [String] {
    let count = options.quick ? 2 : 4
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-raw-v1-\(count)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let samples = ["rocket.jpg", "coffee.png", "chelsea.png", "astronaut.png"]
    let sampleFolder = URL(fileURLWithPath: options.imagePath).deletingLastPathComponent()
    var paths: [String] = []
    for index in 0..<count {
      let path = folder.appendingPathComponent(String(format: "IMG_%04d.DNG", index)).path
      paths.append(path)
      if FileManager.default.fileExists(atPath: path) { continue }
      progress("raw: generating \(path)")
      let sample = sampleFolder.appendingPathComponent(samples[index % samples.count]).path
      let photo = try SampleFrame.enlargedPhoto(
        sample, width: Self.rawWidth, height: Self.rawHeight)
      let partial = path + ".partial"
      try Self.dng(photo.pixelBytes()).write(to: URL(fileURLWithPath: partial))
      try FileManager.default.moveItem(atPath: partial, toPath: path)
    }
    return paths
  }

  /// A DNG whose mosaic samples `rgb` (8-bit sRGB, `rawWidth × rawHeight`), linearised, through an
  /// RGGB pattern, each code scaled by the as-shot neutral between the black and white levels.
  static func dng(_ rgb: [UInt8]) -> Data {
    var table = [[UInt16]](repeating: [], count: 3)
    for channel in 0..<3 {
      table[channel] = (0..<256).map { value in
        let v = Double(value) / 255
        let linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        return UInt16(
          (Double(blackLevel) + linear * neutral[channel] * Double(whiteLevel - blackLevel))
            .rounded())
      }
    }
    var mosaic = [UInt16](repeating: 0, count: rawWidth * rawHeight)
    for y in 0..<rawHeight {
      for x in 0..<rawWidth {
        let channel = y % 2 == 0 ? (x % 2 == 0 ? 0 : 1) : (x % 2 == 0 ? 1 : 2)
        mosaic[y * rawWidth + x] = table[channel][Int(rgb[(y * rawWidth + x) * 3 + channel])]
      }
    }
    let matrix: [Double] = [
      3.2409699, -1.5373832, -0.4986108, -0.9692436, 1.8759675, 0.0415551, 0.0556301, -0.2039770,
      1.0569715,
    ]
    func rationals(_ values: [Double]) -> [UInt8] {
      values.flatMap {
        le32(UInt32(bitPattern: Int32(($0 * 10_000).rounded()))) + le32(10_000)
      }
    }
    // Tag, TIFF type, count, value bytes; the strip offset (273) is filled in below.
    var entries: [(UInt16, UInt16, UInt32, [UInt8])] = [
      (256, 4, 1, le32(UInt32(rawWidth))), (257, 4, 1, le32(UInt32(rawHeight))),
      (258, 3, 1, le16(16)), (259, 3, 1, le16(1)), (262, 3, 1, le16(32803)),
      (271, 2, 7, Array("Pentax\0".utf8)), (272, 2, 4, Array("K-3\0".utf8)), (273, 4, 1, le32(0)),
      (277, 3, 1, le16(1)), (278, 4, 1, le32(UInt32(rawHeight))),
      (279, 4, 1, le32(UInt32(mosaic.count * 2))), (33421, 3, 2, le16(2) + le16(2)),
      (33422, 1, 4, [0, 1, 1, 2]), (50706, 1, 4, [1, 4, 0, 0]),
      (50714, 4, 1, le32(UInt32(blackLevel))), (50717, 4, 1, le32(UInt32(whiteLevel))),
      (50721, 10, 9, rationals(matrix)),
      (50728, 5, 3, rationals(neutral)),
    ]
    let tableEnd = 8 + 2 + entries.count * 12 + 4
    let extraSize = entries.reduce(0) { $0 + ($1.3.count > 4 ? ($1.3.count + 1) / 2 * 2 : 0) }
    let pixelsAt = UInt32(tableEnd + extraSize)
    entries[7].3 = le32(pixelsAt)
    var file: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8) + le16(UInt16(entries.count))
    var extra: [UInt8] = []
    for (tag, type, count, value) in entries {
      file += le16(tag) + le16(type) + le32(count)
      if value.count <= 4 {
        file += value + [UInt8](repeating: 0, count: 4 - value.count)
      } else {
        file += le32(UInt32(tableEnd + extra.count))
        extra += value + (value.count % 2 == 1 ? [0] : [])
      }
    }
    file += le32(0) + extra
    var data = Data(file)
    mosaic.withUnsafeBytes { data.append(contentsOf: $0) }  // little-endian on x86-64 and arm64
    return data
  }

  private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
  private static func le32(_ value: UInt32) -> [UInt8] {
    le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16))
  }
}
