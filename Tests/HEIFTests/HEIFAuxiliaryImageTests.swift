import Foundation
import HEIF
import TestSupport
import Testing

/// ``HEIFFile/auxiliaryImages()`` and ``HEIFFile/exif()`` on HEICs libheif's own `heif-enc` writes: an
/// alpha plane is the auxiliary image libheif 1.15 can write, and a JPEG's EXIF is copied into the
/// HEIC's `Exif` item.
@Suite struct HEIFAuxiliaryImageTests {
  @Test func anAlphaPlaneIsListedWithItsTypeSizeAndDepth() throws {
    let root = try CLIRunner.scratchFolder("heif-aux")
    defer { try? FileManager.default.removeItem(at: root) }
    let png = root.appendingPathComponent("alpha.png").path
    try HEICPictures.photo(png, width: 200, height: 150, ["bandjoin_const", "128"])
    let (withAlpha, plain) = (
      root.appendingPathComponent("alpha.heic"), root.appendingPathComponent("plain.heic")
    )
    try HEICPictures.run("heif-enc", ["-q", "80", png, "-o", withAlpha.path])
    let opaque = root.appendingPathComponent("plain.png").path
    try HEICPictures.photo(opaque, width: 200, height: 150)
    try HEICPictures.run("heif-enc", ["-q", "80", opaque, "-o", plain.path])

    let images = try HEIFFile(path: withAlpha.path).auxiliaryImages()
    #expect(images.count == 1)
    let alpha = try #require(images.first)
    #expect(alpha.type.contains("auxid:1"), "\(alpha.type)")
    #expect(alpha.type != HEIFAuxiliaryImage.appleHDRGainMapType)
    #expect((alpha.width, alpha.height) == (200, 150))
    #expect(alpha.bitDepth == 8)
    #expect(try HEIFFile(path: plain.path).auxiliaryImages().isEmpty)
  }

  @Test func theEXIFIsTheTIFFStructureOfTheJPEGsEXIF() throws {
    let root = try CLIRunner.scratchFolder("heif-exif")
    defer { try? FileManager.default.removeItem(at: root) }
    let heic = root.appendingPathComponent("rotated.heic")
    try HEICPictures.run(
      "heif-enc", ["-q", "60", CLIRunner.sample("rocket_exif_rotated.jpg"), "-o", heic.path])
    let exif = try #require(try HEIFFile(path: heic.path).exif())
    // A TIFF header, little- or big-endian, then the JPEG's own EXIF bytes.
    let header = Array(exif.prefix(4))
    #expect(header == [0x49, 0x49, 0x2A, 0x00] || header == [0x4D, 0x4D, 0x00, 0x2A], "\(header)")
    let jpeg = try Data(
      contentsOf: URL(fileURLWithPath: CLIRunner.sample("rocket_exif_rotated.jpg")))
    #expect(jpeg.range(of: exif.prefix(64)) != nil, "the EXIF's first bytes are the JPEG's")
    let plain = root.appendingPathComponent("plain.heic")
    let png = root.appendingPathComponent("plain.png").path
    try HEICPictures.photo(png, width: 64, height: 48)
    try HEICPictures.run("heif-enc", ["-q", "60", png, "-o", plain.path])
    #expect(try HEIFFile(path: plain.path).exif() == nil)
  }
}
