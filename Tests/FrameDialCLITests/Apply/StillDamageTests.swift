import Foundation
import HEIF
import TestSupport
import Testing
import Vips

/// Damaged JPEG, PNG, TIFF, GIF, WebP and AVIF files: every variant a strict reference decoder calls damaged is refused
/// by `apply` at 1 and 8 libvips threads (one line naming the file, nothing written) and fails in a
/// batch, whose intact files are still written.
@Suite struct StillDamageTests {
  /// A format's intact file and where its picture data lies.
  struct Source {
    var ext: String
    var bytes: Data
    var picture: Range<Int>
  }

  /// rocket.jpg's entropy-coded data: from after the SOS segment to the EOI marker.
  static func jpeg() throws -> Source {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("rocket.jpg")))
    let all = [UInt8](bytes)
    guard let sos = (0..<(all.count - 3)).first(where: { all[$0] == 0xFF && all[$0 + 1] == 0xDA })
    else { throw VipsError("no SOS marker in rocket.jpg") }
    let start = sos + 2 + (Int(all[sos + 2]) << 8 | Int(all[sos + 3]))
    return Source(ext: "jpg", bytes: bytes, picture: start..<(all.count - 2))
  }

  /// coffee.png's IDAT chunks: from the first one's start to the IEND chunk.
  static func png() throws -> Source {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("coffee.png")))
    guard let idat = bytes.range(of: Data("IDAT".utf8)),
      let iend = bytes.range(of: Data("IEND".utf8), options: .backwards)
    else { throw VipsError("no IDAT or IEND chunk in coffee.png") }
    return Source(ext: "png", bytes: bytes, picture: (idat.lowerBound - 4)..<(iend.lowerBound - 4))
  }

  /// coffee.png as a deflate-compressed TIFF from libvips, whose strips lie between the header and the
  /// directory it writes last.
  static func tiff() throws -> Source {
    let coffee = try Image(contentsOf: CLIRunner.sample("coffee.png"))
    let bytes = try Operation.call(
      "tiffsave_buffer", ["in": .image(coffee), "compression": .string("deflate")]
    ).blob("buffer")
    let directory = bytes.prefix(8).suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
    guard directory > 1024, directory < bytes.count else {
      throw VipsError("the TIFF's first directory is at \(directory)")
    }
    return Source(ext: "tif", bytes: bytes, picture: 16..<(directory - 512))
  }

  /// coffee.png as libvips's `saver` writes it (`arguments` added), its picture data taken to start
  /// after the first `header` bytes (the file's own header, palette or box structure) and to run to the
  /// end.
  static func encoded(
    _ ext: String, saver: String, header: Int, _ arguments: [String: Argument] = [:]
  )
    throws -> Source
  {
    var all = arguments
    all["in"] = .image(try Image(contentsOf: CLIRunner.sample("coffee.png")))
    let bytes = try Operation.call(saver, all).blob("buffer")
    return Source(ext: ext, bytes: bytes, picture: header..<(bytes.count - 1))
  }

  /// The intact file of each format the damage test covers.
  static func source(_ ext: String) throws -> Source {
    switch ext {
    case "jpg": return try jpeg()
    case "png": return try png()
    case "tif": return try tiff()
    // A GIF's header, screen descriptor and 256-colour palette take 781 bytes.
    case "gif": return try encoded("gif", saver: "gifsave_buffer", header: 800)
    case "webp": return try encoded("webp", saver: "webpsave_buffer", header: 64)
    default: return try avif()
    }
  }

  /// coffee.png as an AVIF that libheif writes (AV1 at its slowest speed), its picture data taken to
  /// start after the boxes before it (a few hundred bytes).
  static func avif() throws -> Source {
    let coffee = try Image(contentsOf: CLIRunner.sample("coffee.png"))
    let picture = try HEIFPicture(width: coffee.width, height: coffee.height, hasAlpha: false)
    try picture.withPixels { rows, stride in
      try coffee.render(
        into: rows,
        layout: FrameLayout(width: coffee.width, height: coffee.height, bands: 3, rowStride: stride)
      )
    }
    let folder = try CLIRunner.scratchFolder("damage-avif-source")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("coffee.avif").path
    try picture.write(
      to: path, encoding: HEIFEncoding(quality: 50, codec: .av1(speed: 0)), metadata: HEIFMetadata()
    )
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    return Source(ext: "avif", bytes: bytes, picture: 600..<(bytes.count - 1))
  }

  /// The variants of `source`: seeded flips, cuts and zeroed blocks inside its picture data.
  static func variants(of source: Source, seed: UInt64) -> [DamagedVariants.Variant] {
    let maker = DamagedVariants(
      bytes: source.bytes, picture: source.picture, stem: "damaged", ext: source.ext)
    return maker.flipped(count: 10, seed: seed) + maker.cut(at: [0.1, 0.5, 0.9])
      + maker.zeroed(count: 3, blockSize: 64, seed: seed + 1)
  }

  /// The strict reference's verdict on `path`: libjpeg-turbo's own `djpeg -strict` (every warning
  /// fatal, data read to its end) for a JPEG, libvips's loader with `fail_on=warning` on one thread
  /// (where no decoder error is lost) for the rest.
  static func referenceCallsDamaged(_ path: String, ext: String) throws -> Bool {
    let arguments =
      ext == "jpg"
      ? ["djpeg", "-strict", "-outfile", "/dev/null", path]
      : ["VIPS_CONCURRENCY=1", "vips", "copy", "\(path)[fail_on=warning]", "/dev/null.v"]
    let result = try CLIRunner.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/env"))
    return result.status != 0 || !result.standardError.isEmpty
  }

  @Test(arguments: ["jpg", "png", "tif", "gif", "webp", "avif"])
  func everyVariantTheReferenceCallsDamagedIsRefusedAtOneAndEightThreadsAndInABatch(ext: String)
    throws
  {
    let source = try Self.source(ext)
    let root = try CLIRunner.scratchFolder("still-damage-\(ext)")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try source.bytes.write(to: input.appendingPathComponent("intact.\(ext)"))
    var damaged: [String] = []
    for variant in Self.variants(of: source, seed: 0x0DA3_A6ED) {
      let path = input.appendingPathComponent(variant.name).path
      try variant.bytes.write(to: URL(fileURLWithPath: path))
      if try Self.referenceCallsDamaged(path, ext: ext) {
        damaged.append(variant.name)
      } else {
        try FileManager.default.removeItem(atPath: path)
      }
    }
    // Every cut lies inside the picture data, so the reference calls at least those damaged.
    #expect(damaged.count >= 3, "\(damaged)")
    // FrameDial writes no GIF: a GIF's picture is written as PNG.
    let written = ext == "gif" ? "png" : ext
    var problems: [String] = []
    for name in damaged {
      problems += try DamageVerdict.applyProblems(
        input.appendingPathComponent(name).path, ext: written, scratch: root,
        extra: ["--set", "ev=0.3"])
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    let batch = try DamageVerdict.batch(input, scratch: root, extra: ["--jobs", "2"])
    #expect(batch.statuses["intact.\(ext)"] == "done")
    for name in damaged {
      #expect(batch.statuses[name] == "failed", "\(name): \(batch.statuses[name] ?? "no status")")
    }
    #expect(batch.written == ["intact.\(written)"], "\(batch.written)")
  }
}
