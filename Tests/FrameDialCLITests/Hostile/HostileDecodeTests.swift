import Foundation
import TestSupport
import Testing
import Vips

/// Damaged inputs get the same verdict whatever libvips's thread count, and decode problems are reported
/// as such. Every input is generated here.
@Suite struct HostileDecodeTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("decode") }

  /// Runs framedial with `VIPS_CONCURRENCY=threads` in its environment.
  func run(threads: Int, _ arguments: [String]) throws -> CLIRunner.Result {
    try CLIRunner.run(
      ["VIPS_CONCURRENCY=\(threads)", CLIRunner.binary.path] + arguments,
      executable: URL(fileURLWithPath: "/usr/bin/env"))
  }

  /// A seeded generator, so the corpus is the same on every run.
  struct Seeded {
    var state: UInt64
    mutating func next(_ range: ClosedRange<Int>) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return range.lowerBound + Int((state >> 33) % UInt64(range.count))
    }
  }

  /// `bytes` with 1 … 16 bytes XORed at a seeded offset in the last 40 % (where a damaged strip is among
  /// the last ones libvips's threads compute).
  func mutated(_ bytes: Data, _ random: inout Seeded) -> Data {
    var copy = [UInt8](bytes)
    let count = random.next(1...16)
    let offset = random.next((copy.count * 6 / 10)...(copy.count - count - 1))
    for index in offset..<(offset + count) {
      copy[index] ^= UInt8(random.next(1...255))
    }
    return Data(copy)
  }

  /// Encodes `image` with libvips's saver for `ext`.
  func encoded(_ image: Image, _ ext: String, _ options: [String: Argument] = [:]) throws -> Data {
    let saver = ["gif": "gifsave_buffer", "tif": "tiffsave_buffer", "jpg": "jpegsave_buffer"][ext]
    var arguments = options
    arguments["in"] = .image(image)
    return try Operation.call(saver ?? "pngsave_buffer", arguments).blob("buffer")
  }

  /// A small JPEG (a few KB) whose frame header is patched to claim `width × height`: its compressed
  /// data ends long before the pixels it claims.
  func jpegClaiming(width: UInt16, height: UInt16) throws -> Data {
    let small = try Image(contentsOf: CLIRunner.sample("rocket.jpg")).resized(by: 0.1)
    var bytes = [UInt8](try encoded(small, "jpg"))
    var index = 2
    while index + 9 < bytes.count, bytes[index] == 0xFF {
      let marker = bytes[index + 1]
      let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
      if marker == 0xC0 || marker == 0xC2 {
        bytes[index + 5] = UInt8(height >> 8)
        bytes[index + 6] = UInt8(height & 0xFF)
        bytes[index + 7] = UInt8(width >> 8)
        bytes[index + 8] = UInt8(width & 0xFF)
        return Data(bytes)
      }
      index += 2 + length
    }
    throw VipsError("no frame header in the generated JPEG")
  }

  /// Damaged PNG, GIF, TIFF and JPEG files, plus intact ones, written into `folder`.
  func writeDamagedCorpus(into folder: URL) throws {
    let png = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("coffee.png")))
    let coffee = try Image(contentsOf: CLIRunner.sample("coffee.png"))
    let sources: [(String, Data, Int)] = [
      ("png", png, 12),
      ("gif", try encoded(coffee, "gif"), 2),
      ("tif", try encoded(coffee, "tif", ["compression": "deflate"]), 2),
      ("jpg", try encoded(coffee, "jpg"), 2),
    ]
    var random = Seeded(state: 0xDEC0_DE12)
    for (ext, bytes, count) in sources {
      try bytes.write(to: folder.appendingPathComponent("intact-\(ext).\(ext)"))
      for index in 0..<count {
        try mutated(bytes, &random).write(
          to: folder.appendingPathComponent("\(ext)-\(index).\(ext)"))
      }
    }
    // Patched to 1000 × 1000 (the 10000 × 10000 one has its own test: rendering it takes seconds).
    try jpegClaiming(width: 1000, height: 1000).write(
      to: folder.appendingPathComponent("claims-1000.jpg"))
  }

  /// Each file's batch status ("done" or "failed") at `threads` libvips threads per image.
  func verdicts(_ input: URL, threads: Int, zoom: Bool, jobs: Int = 1, root: URL) throws
    -> [String: String]
  {
    let output = root.appendingPathComponent("out-\(threads)-\(zoom)-\(jobs)")
    defer { try? FileManager.default.removeItem(at: output) }
    // A zoom reads the input with random access (decoded whole by libvips's threads, as `apply` does);
    // without one, the batch reads strip by strip.
    let result = try run(
      threads: threads,
      [
        "batch", input.path, "-o", output.path, "--json", "--jobs", String(jobs), "--format",
        "jpeg",
        "--set", "ev=0.3",
      ]
        + (zoom ? ["--set", "zoom=1.5"] : []))
    return DamageVerdict.statuses(result.standardOutput)
  }

  @Test func damagedCorpusGetsTheSameVerdictAtEveryThreadCount() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try writeDamagedCorpus(into: input)
    for zoom in [true, false] {
      let alone = try verdicts(input, threads: 1, zoom: zoom, root: root)
      #expect(alone.count == 23)
      #expect(alone.values.filter { $0 == "failed" }.count >= 12)
      for name in ["intact-png.png", "intact-gif.gif", "intact-tif.tif", "intact-jpg.jpg"] {
        #expect(alone[name] == "done", "\(name)")
      }
      #expect(alone["claims-1000.jpg"] == "failed")
      // Two files in flight at once, each with four threads, as a batch on an 8-core machine runs.
      for (threads, jobs) in zoom ? [(2, 1), (4, 1), (8, 1), (4, 2)] : [(8, 1)] {
        let many = try verdicts(input, threads: threads, zoom: zoom, jobs: jobs, root: root)
        let differing = alone.keys.sorted().filter { many[$0] != alone[$0] }
        #expect(differing.isEmpty, "\(threads) threads, \(jobs) jobs, zoom \(zoom): \(differing)")
      }
    }
  }

  @Test func applyPreviewAndSweepRefuseDamagedPNGsAtEightThreads() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let png = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("coffee.png")))
    var random = Seeded(state: 0x5EED_0008)
    var damaged: [String] = []
    while damaged.count < 3 {
      let path = root.appendingPathComponent("damaged-\(damaged.count).png").path
      try mutated(png, &random).write(to: URL(fileURLWithPath: path))
      // Only files that fail on one thread are damaged by the fail-on policy.
      if try run(threads: 1, ["apply", path, "-o", root.appendingPathComponent("x.jpg").path])
        .status == 1
      {
        damaged.append(path)
      }
    }
    for path in damaged {
      let out = root.appendingPathComponent("out.png").path
      for arguments in [
        ["apply", path, "-o", out, "--set", "ev=0.3"], ["preview", path, "-o", out],
        ["sweep", path, "-o", out, "--control", "ev", "--values", "0,1"],
      ] {
        let result = try run(threads: 8, arguments)
        #expect(result.status == 1, "\(arguments[0]) \(path)")
        #expect(result.standardError.contains("cannot decode the image"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out))
      }
    }
  }

  @Test func aTinyJPEGClaimingTenThousandSquareFailsAsTruncated() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("claims.jpg")
    let bytes = try jpegClaiming(width: 10000, height: 10000)
    #expect(bytes.count < 4096)
    try bytes.write(to: input)
    let output = root.appendingPathComponent("out.jpg").path
    do {
      let result = try run(threads: 8, ["apply", input.path, "-o", output])
      #expect(result.status == 1)
      #expect(
        result.standardError.contains(
          "\(input.path): cannot decode the image: VipsJpeg: Corrupt JPEG data: premature end of data segment"
        ), "\(result.standardError)")
      #expect(!FileManager.default.fileExists(atPath: output))
    }
  }

  @Test func aTIFFWithADamagedDirectoryIsADecodeErrorNotABlockedFormat() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let coffee = try Image(contentsOf: CLIRunner.sample("coffee.png")).resized(by: 0.25)
    var bytes = [UInt8](try encoded(coffee, "tif"))
    // Point the first directory past the end of the file.
    let pastEnd = UInt32(bytes.count + 100)
    for index in 0..<4 { bytes[4 + index] = UInt8((pastEnd >> (8 * UInt32(index))) & 0xFF) }
    for name in ["damaged.tif", "damaged.image"] {
      let input = root.appendingPathComponent(name)
      try Data(bytes).write(to: input)
      let result = try CLIRunner.run(
        ["apply", input.path, "-o", root.appendingPathComponent("out.jpg").path])
      #expect(result.status == 1)
      #expect(
        result.standardError.contains("\(input.path): cannot read: damaged TIFF: "),
        "\(result.standardError)")
      #expect(!result.standardError.contains("not allowed"))
    }
  }

  @Test func xmpTooLargeForAJPEGIsAWarningNamingTheFileAndSize() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let text = String(repeating: "FrameDial ", count: 7000)
    let xmp = Data(
      (#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description>"#
        + text + "</dc:description></rdf:Description></rdf:RDF></x:xmpmeta>").utf8)
    let folder = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let input = folder.appendingPathComponent("tagged.png")
    let image = try Image(contentsOf: CLIRunner.sample("chelsea.png")).editingMetadata {
      $0.setBlob(Image.xmpField, xmp)
    }
    try image.write(to: input.path)
    #expect(try Image(contentsOf: input.path).blob(Image.xmpField).count == xmp.count)
    let expected = "\(input.path): its XMP metadata (\(xmp.count) bytes) was left out"

    let apply = try CLIRunner.run(
      ["apply", input.path, "-o", root.appendingPathComponent("out.jpg").path])
    #expect(apply.status == 0)
    #expect(apply.standardError.contains("warning: \(expected)"), "\(apply.standardError)")
    let kept = try CLIRunner.run(
      ["apply", input.path, "-o", root.appendingPathComponent("out.png").path])
    #expect(kept.status == 0 && kept.standardError.isEmpty)

    let json = try CLIRunner.run([
      "batch", folder.path, "-o", root.appendingPathComponent("json").path, "--json", "--format",
      "jpeg",
    ])
    let event =
      try JSONSerialization.jsonObject(
        with: Data(json.standardOutput.split(separator: "\n")[0].utf8)) as? [String: Any]
    let warnings = event?["warnings"] as? [String] ?? []
    #expect(warnings.count == 1 && warnings[0].hasPrefix(expected), "\(json.standardOutput)")
    let plain = try CLIRunner.run([
      "batch", folder.path, "-o", root.appendingPathComponent("plain").path, "--format", "jpeg",
    ])
    #expect(plain.standardOutput.contains("; warning: \(expected)"), "\(plain.standardOutput)")
  }

  @Test func fittingAnExtremeAspectRatioGivesAScreenSizedImageAndNoGLibWarning() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    for (width, height, fit) in [
      (4000, 1, "iphone-16-pro:portrait"), (1, 4000, "iphone-16-pro:landscape"),
      (4000, 3, "iphone-16-pro:portrait"),
    ] {
      let input = root.appendingPathComponent("strip-\(width)x\(height).png").path
      let pixels = [UInt8]((0..<(width * height * 3)).map { UInt8($0 % 251) })
      try Image.fromPixels(pixels, width: width, height: height, bands: 3).write(to: input)
      do {
        let output = root.appendingPathComponent("out.jpg").path
        let result = try CLIRunner.run(["apply", input, "-o", output, "-y", "--fit", fit])
        #expect(result.status == 0, "\(width)×\(height) \(fit): \(result.standardError)")
        #expect(!result.standardError.contains("GLib") && !result.standardError.contains("WARNING"))
        let header = try Image.probe(output)
        let portrait = !fit.hasSuffix("landscape")
        #expect(
          header.width == (portrait ? 1206 : 2622) && header.height == (portrait ? 2622 : 1206))
      }
    }
  }
}
