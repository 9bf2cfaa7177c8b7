import Foundation
import HEIF
import TestSupport
import Testing

/// Photos with an ISO 21496-1 gain map (a `tmap` item; libavif, Chrome and iOS 18 write them) on the
/// command line: `info` reports the map and the headroom its metadata gives, and an output says the
/// map was not kept (FrameDial writes Apple's form alone), never silently; without the `tmap` brand
/// the item is passed over, and a photo with both forms is read as Apple's.
@Suite struct ISOGainMapCLITests {
  static let metadata = ISOGainMapPhotos.metadata(
    alternate: (13, 10), channels: [.init(minimum: (0, 1), maximum: (13, 10))])

  static func info(_ path: String) throws -> [String: Any]? {
    let result = try CLIRunner.run(["info", "--json", path])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    return (object as? [String: Any])?["hdrGainMap"] as? [String: Any]
  }

  @Test(arguments: [false, true])
  func infoReportsTheMapAndItsHeadroom(av1: Bool) throws {
    let folder = try CLIRunner.scratchFolder("iso-gain-map-info")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = folder.appendingPathComponent(av1 ? "photo.avif" : "photo.heic").path
    try ISOGainMapPhotos.write(photo, width: 240, height: 160, metadata: Self.metadata, av1: av1)
    let map = try #require(try Self.info(photo))
    #expect(map["kind"] as? String == "iso21496-1")
    #expect(map["width"] as? Int == 120 && map["height"] as? Int == 80)
    #expect(map["bitDepth"] as? Int == 8)
    #expect(map["headroomStops"] as? Double == 1.3)
    #expect(abs((map["headroom"] as? Double ?? 0) - pow(2, 1.3)) < 1e-12)
    let line = try CLIRunner.run(["info", photo]).standardOutput
    #expect(line.contains("HDR gain map (ISO 21496-1, 120×80, headroom 1.30 stops)"), "\(line)")
  }

  @Test func anOutputSaysTheMapWasNotKeptAndADroppedOneSaysNothing() throws {
    let folder = try CLIRunner.scratchFolder("iso-gain-map-apply")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = folder.appendingPathComponent("photo.avif").path
    try ISOGainMapPhotos.write(photo, width: 240, height: 160, metadata: Self.metadata, av1: true)
    let said =
      "framedial apply: warning: \(photo): its HDR gain map (ISO 21496-1, headroom 1.30 stops) was "
      + "not kept"
    let tail =
      ": the output is its SDR picture, which an HDR screen shows without the brighter highlights"
    // A JPEG: no hint that a HEIC keeps it, since FrameDial's HEIC would not.
    let jpeg = try CLIRunner.run(
      ["apply", photo, "-o", folder.appendingPathComponent("out.jpg").path])
    #expect(jpeg.status == 0, "\(jpeg.standardError)")
    #expect(jpeg.standardError == said + tail + "\n", "\(jpeg.standardError)")
    // A HEIC, edited: the reason is given.
    let heic = folder.appendingPathComponent("out.heic").path
    let edited = try CLIRunner.run(["apply", photo, "-o", heic, "--set", "ev=0.3"])
    #expect(edited.status == 0, "\(edited.standardError)")
    #expect(
      edited.standardError
        == said + " (FrameDial writes gain maps in Apple's form alone, and this one is in the "
        + "ISO 21496-1 form)" + tail + "\n", "\(edited.standardError)")
    #expect(try Self.info(heic) == nil, "the output carries no gain map")
    let dropped = try CLIRunner.run(
      ["apply", photo, "-o", folder.appendingPathComponent("drop.jpg").path, "--hdr-photo", "drop"])
    #expect(dropped.status == 0 && dropped.standardError.isEmpty, "\(dropped.standardError)")
  }

  /// Metadata of a later version (or damaged) leaves the headroom unknown, the map still reported and
  /// an output still warned about.
  @Test func metadataFrameDialCannotReadLeavesTheHeadroomUnknown() throws {
    let folder = try CLIRunner.scratchFolder("iso-gain-map-later")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = folder.appendingPathComponent("photo.heic").path
    var later = Self.metadata
    later[2] = 1  // minimum_version 1
    try ISOGainMapPhotos.write(photo, width: 240, height: 160, metadata: later)
    let map = try #require(try Self.info(photo))
    #expect(map["kind"] as? String == "iso21496-1")
    #expect(map["headroomStops"] is NSNull && map["headroom"] is NSNull)
    let line = try CLIRunner.run(["info", photo]).standardOutput
    #expect(line.contains("HDR gain map (ISO 21496-1, 120×80, headroom not given)"), "\(line)")
    let jpeg = try CLIRunner.run(
      ["apply", photo, "-o", folder.appendingPathComponent("out.jpg").path])
    #expect(jpeg.status == 0)
    #expect(
      jpeg.standardError.contains("its HDR gain map (ISO 21496-1) was not kept"),
      "\(jpeg.standardError)")
  }

  @Test func withoutTheTmapBrandTheItemIsPassedOver() throws {
    let folder = try CLIRunner.scratchFolder("iso-gain-map-brand")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = folder.appendingPathComponent("photo.heic").path
    try ISOGainMapPhotos.write(
      photo, width: 240, height: 160, metadata: Self.metadata, brand: false)
    #expect(try Self.info(photo) == nil)
    let jpeg = try CLIRunner.run(
      ["apply", photo, "-o", folder.appendingPathComponent("out.jpg").path])
    #expect(jpeg.status == 0 && jpeg.standardError.isEmpty, "\(jpeg.standardError)")
  }

  /// An iOS 18 photo holds both forms: FrameDial reads Apple's (with the maker note's headroom), the
  /// form it keeps.
  @Test func withBothFormsApplesIsRead() throws {
    let folder = try CLIRunner.scratchFolder("iso-gain-map-both")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = folder.appendingPathComponent("photo.heic").path
    try ISOGainMapPhotos.write(
      photo, width: 240, height: 160, metadata: Self.metadata, apple: AppleMakerNotes.hdrPhotoEXIF)
    let map = try #require(try Self.info(photo))
    #expect(map["kind"] as? String == "apple")
    #expect(map["headroomStops"] as? Double != 1.3, "the maker note's headroom, not the tmap's")
    let heic = folder.appendingPathComponent("out.heic").path
    let kept = try CLIRunner.run(["apply", photo, "-o", heic])
    #expect(kept.status == 0 && kept.standardError.isEmpty, "\(kept.standardError)")
    #expect(try Self.info(heic)?["kind"] as? String == "apple")
  }
}
