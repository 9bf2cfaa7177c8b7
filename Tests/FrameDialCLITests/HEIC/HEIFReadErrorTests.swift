import Foundation
import FrameDial
import TestSupport
import Testing

/// A HEIF file that cannot be read gets one line of FrameDial's own — `PATH: cannot read: damaged HEIF:
/// REASON`, with libheif's reason and none of libvips's operation names or libheif's error codes — the
/// same in `apply`, `batch --json` and `info`; one that says it is HEIF among its compatible brands is
/// a HEIF, never a video.
@Suite struct HEIFReadErrorTests {
  /// A small HEIC written by heif-enc into `folder`, as bytes.
  static func heic(in folder: URL) throws -> Data {
    let png = folder.appendingPathComponent("small.png").path
    let heic = folder.appendingPathComponent("small.heic")
    try HEICPictures.photo(png, width: 96, height: 64)
    try HEICPictures.run("heif-enc", ["-q", "60", png, "-o", heic.path])
    return try Data(contentsOf: heic)
  }

  /// `bytes` with the four bytes of `from` (first found) replaced by `to`.
  static func replacing(_ from: String, with to: [UInt8], in bytes: Data) throws -> Data {
    let found = try #require(bytes.range(of: Data(from.utf8)))
    var copy = bytes
    copy.replaceSubrange(found, with: to)
    return copy
  }

  /// The lines `apply`, `batch --json` and `info` print for `path`, after checking that each fails
  /// with one line naming it (the batch's `error` field for the batch).
  static func reasons(_ path: URL, scratch: URL) throws -> [String] {
    let apply = try CLIRunner.run(
      ["apply", path.path, "-o", scratch.appendingPathComponent("out.png").path])
    let info = try CLIRunner.run(["info", path.path])
    let output = scratch.appendingPathComponent("batch-out")
    defer { try? FileManager.default.removeItem(at: output) }
    let batch = try CLIRunner.run(["batch", path.path, "-o", output.path, "--json"])
    var lines: [String] = []
    for (name, result) in [("apply", apply), ("info", info)] {
      #expect(result.status == 1, "\(name): \(result.standardError)")
      let errors = result.standardError.split(separator: "\n")
      #expect(errors.count == 1, "\(name): \(result.standardError)")
      let prefix = "framedial \(name): \(path.path): "
      #expect(result.standardError.hasPrefix(prefix), "\(name): \(result.standardError)")
      lines.append(String(errors.first?.dropFirst(prefix.count) ?? ""))
    }
    let event = batch.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }.first { $0["event"] as? String == "file" }
    #expect(event?["status"] as? String == "failed", "\(batch.standardOutput)")
    lines.append(event?["error"] as? String ?? "")
    #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out.png").path))
    return lines
  }

  @Test func heifWithoutMetaBoxSaysSoInEveryCommand() throws {
    let folder = try CLIRunner.scratchFolder("heif-read-meta")
    defer { try? FileManager.default.removeItem(at: folder) }
    let damaged = folder.appendingPathComponent("no-meta.heic")
    try Self.replacing("meta", with: Array("mxta".utf8), in: try Self.heic(in: folder))
      .write(to: damaged)
    let reasons = try Self.reasons(damaged, scratch: folder)
    // libheif 1.19 reads past the renamed box looking for its `meta` box, to the file's end.
    #expect(
      Set(reasons) == ["cannot read: damaged HEIF: Invalid input: Unexpected end of file"],
      "\(reasons)")
  }

  @Test func heifWithADamagedFirstBrandIsADamagedHEIFNotAVideo() throws {
    let folder = try CLIRunner.scratchFolder("heif-read-brand")
    defer { try? FileManager.default.removeItem(at: folder) }
    // The first brand unreadable, "mif1" and "heic" still among the compatible ones (heif-enc writes
    // "heic" first): libvips recognises it by neither, FFmpeg would open it as an MP4.
    let bytes = try Self.heic(in: folder)
    var brandless = bytes
    brandless.replaceSubrange(8..<12, with: [0x61, 0x8A, 0x65, 0x99])
    #expect(
      ImageSniffer.kind(ofHeader: [UInt8](brandless.prefix(ImageSniffer.headerLength))) == .heif)
    #expect(ImageSniffer.videoContainer(ofHeader: [UInt8](brandless.prefix(189))) == nil)
    // It is still a HEIF libheif reads: it renders.
    let readable = folder.appendingPathComponent("brandless.heic")
    try brandless.write(to: readable)
    let rendered = try CLIRunner.run(
      ["apply", readable.path, "-o", folder.appendingPathComponent("brandless.png").path])
    #expect(rendered.status == 0, "\(rendered.standardError)")
    // With its primary item missing too, it is a damaged HEIF in every command.
    let damaged = folder.appendingPathComponent("brandless-pitm.heic")
    let pitm = try #require(brandless.range(of: Data("pitm".utf8)))
    var broken = brandless
    broken.replaceSubrange(pitm.upperBound + 4..<pitm.upperBound + 6, with: [0x7F, 0x7F])
    try broken.write(to: damaged)
    let reasons = try Self.reasons(damaged, scratch: folder)
    for reason in reasons {
      #expect(reason.hasPrefix("cannot read: damaged HEIF: Invalid input: "), "\(reason)")
      #expect(
        reason.contains("'pitm' box references an unsupported or non-existing image"), "\(reason)")
    }
  }

  @Test func compatibleBrandsTellHEIFAndAVIFFromVideo() {
    func header(_ major: String, _ compatible: [String]) -> [UInt8] {
      let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
      let size = body.count + 8
      return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + body + [UInt8](repeating: 0, count: 64)
    }
    #expect(ImageSniffer.kind(ofHeader: header("\u{1}\u{2}\u{3}\u{4}", ["mif1", "heic"])) == .heif)
    #expect(ImageSniffer.kind(ofHeader: header("xxxx", ["mif1", "miaf", "avif"])) == .avif)
    #expect(ImageSniffer.kind(ofHeader: header("isom", ["isom", "iso2", "avc1", "mp41"])) == nil)
    #expect(ImageSniffer.videoContainer(ofHeader: header("xxxx", ["msf1"])) == nil)
    #expect(ImageSniffer.videoContainer(ofHeader: header("isom", ["isom", "mp41"])) == "MP4")
    // A cut ftyp box names no compatible brand.
    #expect(ImageSniffer.kind(ofHeader: Array(header("xxxx", ["mif1"]).prefix(16))) == nil)
  }
}
