import Foundation
import HEIF
import TestSupport
import Testing
import Vips

/// `--hdr-photo keep|drop` on `apply` and `batch`: an HDR photo's gain map kept in an unedited HEIC by
/// default, left out without a warning when dropped; batch's settings record holds the choice, so a
/// change redoes the outputs.
@Suite struct HDRPhotoOptionTests {
  /// A 160 × 120 HEIC with an 80 × 60 Apple gain map (no EXIF: its headroom is not given) at `path`.
  static func writeHDRPhoto(_ path: String) throws {
    try HDRPhotos.write(path, width: 160, height: 120)
  }

  /// True when the HEIF file at `path` carries an Apple gain map.
  static func hasGainMap(_ path: String) throws -> Bool {
    try HEIFFile(path: path).auxiliaryImages().contains {
      $0.type == HEIFAuxiliaryImage.appleHDRGainMapType
    }
  }

  @Test func applyDropsTheGainMapOnPurposeWithoutAWarning() throws {
    let root = try CLIRunner.scratchFolder("hdr-photo-apply")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("hdr.heic").path
    try Self.writeHDRPhoto(input)
    let kept = root.appendingPathComponent("kept.heic").path
    let keep = try CLIRunner.run(["apply", input, "-o", kept])
    #expect(keep.status == 0 && keep.standardError.isEmpty, "\(keep.standardError)")
    #expect(try Self.hasGainMap(kept))

    let dropped = root.appendingPathComponent("dropped.heic").path
    let drop = try CLIRunner.run(["apply", input, "-o", dropped, "--hdr-photo", "DROP"])
    #expect(drop.status == 0 && drop.standardError.isEmpty, "\(drop.standardError)")
    #expect(try !Self.hasGainMap(dropped))
    let jpeg = root.appendingPathComponent("plain.jpg").path
    let plain = try CLIRunner.run(["apply", input, "-o", jpeg])
    #expect(
      plain.standardError.contains(
        "its HDR gain map (Apple) was not kept: the output is its SDR picture, which an HDR screen "
          + "shows without the brighter highlights (--format heic keeps it)"),
      "\(plain.standardError)")
    let quiet = try CLIRunner.run(["apply", input, "-o", jpeg, "-y", "--hdr-photo", "drop"])
    #expect(quiet.status == 0 && quiet.standardError.isEmpty, "\(quiet.standardError)")

    let wrong = try CLIRunner.run(["apply", input, "-o", jpeg, "-y", "--hdr-photo", "maybe"])
    #expect(wrong.status == 2)
    #expect(wrong.standardError.contains("--hdr-photo must be one of keep, drop, not 'maybe'"))
  }

  @Test func batchRecordsTheChoiceAndRedoesWhatItChanges() throws {
    let root = try CLIRunner.scratchFolder("hdr-photo-batch")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try Self.writeHDRPhoto(input.appendingPathComponent("photo.heic").path)
    let output = root.appendingPathComponent("out")
    let written = output.appendingPathComponent("photo.heic").path
    let first = try CLIRunner.run(["batch", input.path, "-o", output.path])
    #expect(first.status == 0, "\(first.standardError)")
    #expect(try Self.hasGainMap(written))

    let dropped = try CLIRunner.run(["batch", input.path, "-o", output.path, "--hdr-photo", "drop"])
    #expect(
      dropped.standardError.contains("0 done, 1 redone (made with other settings), 0 skipped"),
      "\(dropped.standardError)")
    #expect(try !Self.hasGainMap(written))
    let again = try CLIRunner.run(["batch", input.path, "-o", output.path, "--hdr-photo", "drop"])
    #expect(again.standardError.contains("0 done, 1 skipped, 0 failed"), "\(again.standardError)")
  }
}
