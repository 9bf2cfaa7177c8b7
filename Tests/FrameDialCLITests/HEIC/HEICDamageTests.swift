import Foundation
import HEIF
import TestSupport
import Testing
import Video

/// Damaged HEICs are refused, never written as garbage: every variant of a generated HEIC (one picture,
/// a grid of tiles, a picture with alpha) that the strict reference (``HEVCReference``: `ffmpeg` with
/// FFmpeg's HEVC decoder exploding at its first error, on each picture's own bitstream) calls damaged
/// makes `apply` exit 1 with one line naming the file, at 1 and 8 libvips threads, and a batch of them
/// fails each file and writes none.
@Suite(.serialized) struct HEICDamageTests {
  /// A generated HEIC and the byte range of its coded pictures.
  struct Source {
    var url: URL
    var picture: Range<Int>
  }

  /// The HEIC of `kind` written into `folder`: "single" (one 640×480 picture), "grid" (2 × 2 tiles of
  /// 320 × 240, cropped to 630 × 470, as a camera's grid is) or "alpha" (480 × 320 with an alpha
  /// picture), with the byte range of its coded pictures (the `mdat` payload, after a grid's
  /// descriptor).
  static func source(_ kind: String, in folder: URL) throws -> Source {
    let png = folder.appendingPathComponent("\(kind).png").path
    let heic = folder.appendingPathComponent("\(kind).heic")
    switch kind {
    case "grid":
      try HEICPictures.photo(png, width: 640, height: 480)
      var tiles: [URL] = []
      for row in 0..<2 {
        for column in 0..<2 {
          let part = folder.appendingPathComponent("tile-\(row)-\(column).png").path
          let coded = folder.appendingPathComponent("tile-\(row)-\(column).heic")
          try HEICPictures.run(
            "vips", ["crop", png, part, "\(column * 320)", "\(row * 240)", "320", "240"])
          try HEICPictures.run("heif-enc", ["-q", "70", part, "-o", coded.path])
          tiles.append(coded)
        }
      }
      try GridHEIC.write(
        heic, tiles: tiles, columns: 2, rows: 2, tileSize: (320, 240), size: (630, 470))
      let (mdat, size) = try GridHEIC.find("mdat", in: try Data(contentsOf: heic))
      return Source(url: heic, picture: mdat + 8 + 8..<mdat + size)
    case "alpha":
      try HEICPictures.photo(png, width: 480, height: 320, ["bandjoin_const", "200"])
      try HEICPictures.run("heif-enc", ["-q", "70", png, "-o", heic.path])
    default:
      try HEICPictures.photo(png, width: 640, height: 480)
      try HEICPictures.run("heif-enc", ["-q", "70", png, "-o", heic.path])
    }
    let (mdat, size) = try GridHEIC.find("mdat", in: try Data(contentsOf: heic))
    return Source(url: heic, picture: mdat + 8..<mdat + size)
  }

  /// Flips, cuts and zeroed blocks of `source`, seeded by `seed`.
  static func variants(of source: Source, kind: String, seed: UInt64) throws
    -> [DamagedVariants.Variant]
  {
    let damaged = DamagedVariants(
      bytes: try Data(contentsOf: source.url), picture: source.picture, stem: kind, ext: "heic")
    return damaged.flipped(count: 20, seed: seed) + damaged.cut(at: [0.1, 0.5, 0.95])
      + damaged.zeroed(count: 3, blockSize: 32, seed: seed + 1)
  }

  @Test(arguments: [("single", 0x4845_4943), ("grid", 0x4752_4944), ("alpha", 0x414C_5048)])
  func everyVariantTheReferenceCallsDamagedIsRefused(kind: String, seed: UInt64) throws {
    let folder = try CLIRunner.scratchFolder("heic-damage-\(kind)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = try Self.source(kind, in: folder)
    // The intact file is intact by the reference's measure, and FrameDial renders it.
    #expect(try HEVCReference.damage(of: source.url.path, scratch: folder) == nil)
    let batchInput = folder.appendingPathComponent("batch")
    try FileManager.default.createDirectory(at: batchInput, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: source.url, to: batchInput.appendingPathComponent("intact.heic"))
    var damaged: [String] = []
    for variant in try Self.variants(of: source, kind: kind, seed: seed) {
      let path = folder.appendingPathComponent(variant.name)
      try variant.bytes.write(to: path)
      guard try HEVCReference.damage(of: path.path, scratch: folder) != nil else { continue }
      damaged.append(variant.name)
      let problems = try DamageVerdict.applyProblems(
        path.path, ext: "png", scratch: folder, saying: "damaged HEIF")
      #expect(problems.isEmpty, "\(variant.damage): \(problems)")
      try FileManager.default.copyItem(
        at: path, to: batchInput.appendingPathComponent(variant.name))
    }
    // Enough of them are damaged for the verdicts to mean something (each cut is).
    #expect(damaged.count >= 8, "\(damaged)")
    let (statuses, written) = try DamageVerdict.batch(batchInput, scratch: folder)
    #expect(statuses["intact.heic"] == "done")
    for name in damaged {
      #expect(statuses[name] == "failed", "\(name)")
    }
    #expect(written.filter { !$0.hasPrefix(".") } == ["intact.heic"], "\(written)")
  }

  /// A picture whose first NAL unit claims more bytes than the file holds: `apply` says it is cut
  /// short, and leaves no output.
  @Test func aPictureCutShortIsRefusedSayingSo() throws {
    let folder = try CLIRunner.scratchFolder("heic-cut-short")
    defer { try? FileManager.default.removeItem(at: folder) }
    let damaged = try HEICPictures.cutShort(in: folder)
    let output = folder.appendingPathComponent("out.png").path
    let result = try CLIRunner.run(["apply", damaged.path, "-o", output])
    #expect(result.status == 1)
    #expect(result.standardError.hasPrefix("framedial apply: "))
    #expect(result.standardError.contains("cut short"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
