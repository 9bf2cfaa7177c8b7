import Foundation
import Raw
import TestSupport
import Testing
import Vips

/// Damaged camera raws are refused, with one line naming the file, and nothing is written for them;
/// intact ones develop as before. The raw data's place and size are checked against the file when
/// LibRaw opens it (LibRaw 0.20 develops a raw cut short as black or stripes without a word), and
/// LibRaw's own reports of damaged data refuse a file while it is decoded.
@Suite struct RawDamageTests {
  /// A generated raw, the bytes its samples take in the file, and the name it is written under.
  struct Base {
    var name: String
    var scene: DNGScene

    var data: Data { scene.data() }
    /// The samples' bytes: the pieces are written last, one after the other.
    var picture: Range<Int> {
      let size = scene.pieces().reduce(0) { $0 + $1.count }
      return (data.count - size)..<data.count
    }
  }

  /// Uncompressed DNGs in one strip, in strips of 8 rows and in one tile.
  static var bases: [Base] {
    var strips = DNGScene.patches()
    strips.rowsPerStrip = 8
    var tile = DNGScene.patches()
    tile.tileSize = (tile.width, tile.height)
    return [
      Base(name: "strip", scene: .patches()), Base(name: "strips", scene: strips),
      Base(name: "tile", scene: tile),
    ]
  }

  /// What `dcraw_emu` (LibRaw's own developer) says of the raw at `path`: true when it exits with an
  /// error or prints a complaint (a data error, an unexpected end of file, a file it cannot open).
  static func libRawComplains(_ path: URL) throws -> Bool {
    let result = try CLIRunner.run(
      ["-T", "-Z", "-", path.path], executable: URL(fileURLWithPath: "/usr/bin/dcraw_emu"))
    return result.status != 0
      || !result.standardError.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
  }

  /// A variant with its verdict from the strict reference: LibRaw's own complaints, or the file's
  /// facts (a cut inside the raw data, a piece moved past the end, a byte count far too small).
  struct Judged {
    var variant: DamagedVariants.Variant
    var damaged: Bool
  }

  /// Every damaged variant of every base, written into `folder`, with the reference's verdict.
  static func judgedVariants(in folder: URL) throws -> [Judged] {
    var judged: [Judged] = []
    for (index, base) in bases.enumerated() {
      let variants = DamagedVariants(
        bytes: base.data, picture: base.picture, stem: "IMG_\(base.name)", ext: "dng")
      let seed = UInt64(index + 1) * 7919
      let byFacts =
        variants.cut(at: [0, 0.01, 0.25, 0.5, 0.9, 0.999])
        + shapes(of: base)
      let byLibRaw =
        variants.flipped(count: 6, seed: seed)
        + variants.zeroed(count: 3, blockSize: 96, seed: seed)
      for variant in byFacts + byLibRaw {
        let path = folder.appendingPathComponent(variant.name)
        try variant.bytes.write(to: path)
        let complains = try libRawComplains(path)
        let isFact = byFacts.contains { $0.name == variant.name }
        judged.append(Judged(variant: variant, damaged: isFact || complains))
      }
    }
    return judged
  }

  /// The two shapes of ExifTool's cut-down raws rebuilt on `base`: its first strip or tile moved past
  /// the end of the file, and its byte count far too small for its picture (22 bytes).
  static func shapes(of base: Base) -> [DamagedVariants.Variant] {
    var pastTheEnd = base.scene
    pastTheEnd.editPieces = { offsets, _ in offsets[0] += 10_000_000 }
    var tooSmall = base.scene
    tooSmall.editPieces = { _, counts in counts[0] = 22 }
    return [
      DamagedVariants.Variant(
        name: "IMG_\(base.name)-past-end.dng", bytes: pastTheEnd.data(),
        damage: "its first piece's offset past the end"),
      DamagedVariants.Variant(
        name: "IMG_\(base.name)-22-bytes.dng", bytes: tooSmall.data(),
        damage: "its first piece's byte count 22"),
    ]
  }

  @Test func everyVariantTheReferenceCallsDamagedIsRefusedAndTheRestDevelop() throws {
    let folder = try CLIRunner.scratchFolder("raw-damage")
    defer { try? FileManager.default.removeItem(at: folder) }
    let judged = try Self.judgedVariants(in: folder)
    let damaged = judged.filter(\.damaged)
    // Every cut and both shapes of each base; flips and zeroed blocks inside uncompressed samples are
    // not damage any decoder can see.
    #expect(damaged.count == Self.bases.count * 8, "\(damaged.map(\.variant.damage))")
    for item in damaged {
      let path = folder.appendingPathComponent(item.variant.name).path
      let problems = try DamageVerdict.applyProblems(path, ext: "png", scratch: folder)
      #expect(problems.isEmpty, "\(item.variant.damage): \(problems)")
    }
    for item in judged where !item.damaged {
      let path = folder.appendingPathComponent(item.variant.name).path
      let output = folder.appendingPathComponent("\(item.variant.name).png")
      let result = try CLIRunner.run(["apply", path, "-o", output.path])
      #expect(result.status == 0, "\(item.variant.damage): \(result.standardError)")
    }
  }

  @Test func aBatchMarksEachDamagedRawFailedWritesNothingForItAndDevelopsTheRest() throws {
    let folder = try CLIRunner.scratchFolder("raw-damage-batch")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let damaged = try Self.judgedVariants(in: input).filter(\.damaged).map(\.variant.name)
    for name in try FileManager.default.contentsOfDirectory(atPath: input.path)
    where !damaged.contains(name) {
      try FileManager.default.removeItem(at: input.appendingPathComponent(name))
    }
    try DNGScene.patches().data().write(to: input.appendingPathComponent("IMG_intact.dng"))
    let (statuses, written) = try DamageVerdict.batch(input, scratch: folder)
    for name in damaged { #expect(statuses[name] == "failed", "\(name): \(statuses[name] ?? "-")") }
    #expect(statuses["IMG_intact.dng"] == "done")
    #expect(written.filter { !$0.hasPrefix(".") } == ["IMG_intact.jpg"], "\(written)")
  }

  @Test func strippedAndTiledDNGsDevelopToTheSamplesOfTheOneStripOne() throws {
    let folder = try CLIRunner.scratchFolder("raw-layouts")
    defer { try? FileManager.default.removeItem(at: folder) }
    var outputs: [[UInt8]] = []
    for base in Self.bases {
      let input = folder.appendingPathComponent("\(base.name).dng")
      try base.data.write(to: input)
      let output = folder.appendingPathComponent("\(base.name).png")
      let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
      #expect(result.status == 0, "\(base.name): \(result.standardError)")
      outputs.append(try Image(contentsOf: output.path).pixelBytes())
    }
    #expect(outputs.count == 3 && outputs.allSatisfy { $0 == outputs[0] })
  }

  @Test func aTiledUncompressedDNGIsRefusedAsLibRawReadsItsTileTableAsSamples() throws {
    let folder = try CLIRunner.scratchFolder("raw-tiled")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = DNGScene.patches()
    scene.tileSize = (32, 16)
    let input = folder.appendingPathComponent("IMG_0010.DNG")
    try scene.data().write(to: input)
    let output = folder.appendingPathComponent("out.png")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
    #expect(result.status == 1)
    #expect(
      result.standardError
        == "framedial apply: \(input.path): a DNG (Pentax K-3), a colour filter array mosaic of "
        + "64×48: LibRaw \(RawFile.libRawVersion) cannot decode tiled uncompressed raw data\n")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test func aLosslessJPEGDNGWhoseTileIsNoJPEGIsRefusedNotDevelopedBlack() throws {
    let folder = try CLIRunner.scratchFolder("raw-not-jpeg")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = DNGScene.patches()
    scene.compression = 7  // the samples stay uncompressed: no JPEG stream starts there
    scene.tileSize = (scene.width, scene.height)
    let input = folder.appendingPathComponent("IMG_0011.DNG")
    try scene.data().write(to: input)
    let result = try CLIRunner.run(["info", input.path])
    #expect(result.status == 1)
    #expect(
      result.standardError
        == "framedial info: \(input.path): a DNG (Pentax K-3), a colour filter array mosaic of "
        + "64×48: the file is damaged: its raw tile 1 of 1 does not start a lossless JPEG stream\n")
    // ExifTool's cut-down DNG: one lossless JPEG tile of 22 bytes for its whole picture. LibRaw
    // develops it black and says nothing.
    scene.editPieces = { _, counts in counts[0] = 22 }
    try scene.data().write(to: input)
    #expect(try !Self.libRawComplains(input))
    let cut = try CLIRunner.run(["info", input.path])
    #expect(cut.status == 1)
    #expect(
      cut.standardError.hasSuffix(
        ": the file is damaged: its raw tile 1 of 1 holds 22 bytes, too few for 64×48 pixels in a "
          + "lossless coding (at least 1 bit a sample: 384 bytes)\n"), "\(cut.standardError)")
  }

  /// ExifTool's cut-down camera raws (real files whose raw data was cut to a few bytes).
  static let cutDown = [
    "exiftool-DNG.dng", "exiftool-Nikon.nef", "exiftool-Panasonic.rw2", "exiftool-CanonRaw.cr2",
    "exiftool-FujiFilm.raf",
  ]

  @Test(.enabled(if: RealFiles.available))
  func realCutDownRawsAreRefusedAndRealIntactOnesDevelop() throws {
    let folder = try CLIRunner.scratchFolder("raw-real")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for name in Self.cutDown {
      let path = RealFiles.path("damaged/\(name)")
      let problems = try DamageVerdict.applyProblems(path, ext: "jpg", scratch: folder)
      #expect(problems.isEmpty, "\(name): \(problems)")
      let info = try CLIRunner.run(["info", path])
      #expect(info.status == 1, "\(name)")
      #expect(
        info.standardError.hasPrefix("framedial info: \(path): ")
          && info.standardError.contains(": the file is damaged: ")
          && info.standardError.filter { $0 == "\n" }.count == 1, "\(info.standardError)")
      try FileManager.default.copyItem(
        atPath: path, toPath: input.appendingPathComponent(name).path)
    }
    // LibRaw cannot open the cut-down CR2 at all; its camera is one LibRaw lists.
    let canon = RealFiles.path("damaged/exiftool-CanonRaw.cr2")
    let refused = try CLIRunner.run([
      "apply", canon, "-o", folder.appendingPathComponent("c.jpg").path,
    ])
    #expect(
      refused.standardError
        == "framedial apply: \(canon): a Canon CR2 raw (Canon EOS 350D DIGITAL): the file is "
        + "damaged: LibRaw \(RawFile.libRawVersion) reads the Canon EOS 350D's raws but cannot open "
        + "this one\n")
    let (statuses, written) = try DamageVerdict.batch(input, scratch: folder)
    for name in Self.cutDown { #expect(statuses[name] == "failed", "\(name): \(statuses)") }
    #expect(written.filter { !$0.hasPrefix(".") }.isEmpty, "\(written)")
    for (name, width, height) in [
      ("raw/RAW_NIKON_D1.NEF", 2012, 1324), ("raw/RAW_KODAK_DC50.KDC", 768, 512),
    ] {
      let output = folder.appendingPathComponent("\(width).jpg")
      let result = try CLIRunner.run(["apply", RealFiles.path(name), "-o", output.path])
      #expect(result.status == 0, "\(name): \(result.standardError)")
      let image = try Image(contentsOf: output.path)
      #expect(image.width == width && image.height == height, "\(name)")
      // A picture, not a flat field: its samples spread.
      let bytes = try image.pixelBytes()
      let mean = Double(bytes.reduce(0) { $0 + Int($1) }) / Double(bytes.count)
      let spread = bytes.reduce(0.0) { $0 + abs(Double($1) - mean) } / Double(bytes.count)
      #expect(mean > 20 && mean < 235 && spread > 10, "\(name): mean \(mean), spread \(spread)")
    }
  }
}
