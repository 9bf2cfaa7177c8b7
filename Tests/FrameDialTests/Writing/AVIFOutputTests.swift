import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// AVIF written through libheif's AV1 encoder (``HEIFOutput``), as HEIC is: the rendered pixels, the
/// profile, the upright EXIF and the XMP, and 4:4:4 chroma from quality 90.
@Suite(.serialized) struct AVIFOutputTests {
  let renderer = StillRenderer()

  @Test func writesTheRenderedPixelsWithProfileEXIFAndXMP() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("rotated.jpg").path
    try Image(contentsOf: RenderFixtures.sample("rocket_exif_rotated.jpg"))
      .editingMetadata { $0.setBlob(Image.xmpField, HEICOutputTests.xmp) }
      .write(to: input, options: SaveOptions(quality: 95))
    let state = ControlState(exposureBias: 0.5, saturation: 1.3)
    let avif = folder.appendingPathComponent("out.avif").path
    let png = folder.appendingPathComponent("out.png").path
    let result = try renderer.renderFile(at: input, to: avif, state: state)
    try renderer.renderFile(at: input, to: png, state: state)
    #expect(result.format == .avif && result.width == 640 && result.height == 427)

    let written = try Image(contentsOf: avif)
    #expect(written.loader == "heifload")
    #expect(written.width == 640 && written.height == 427 && written.bands == 3)
    // AV1 at the default quality 80 keeps the lossless render's pixels as close as libvips's
    // heifsave at the same settings (28.5 dB on this detailed photo); the unedited picture is
    // 24 dB away.
    let reference = try Image(contentsOf: png).pixelBytes()
    let quality = HEICOutputTests.psnr(try written.pixelBytes(), reference)
    #expect(quality > 27.5, "PSNR \(quality) dB")
    let unedited = try renderer.renderFile(
      at: input, to: folder.appendingPathComponent("plain.png").path, state: ControlState())
    #expect(unedited.width == 640)
    let uneditedPixels = try Image(contentsOf: folder.appendingPathComponent("plain.png").path)
      .pixelBytes()
    #expect(HEICOutputTests.psnr(uneditedPixels, reference) < quality - 3)

    #expect(try HEICOutputTests.exiftool(["-MajorBrand"], avif) == ["avif"])
    #expect(try HEICOutputTests.exiftool(["-Orientation"], avif) == ["1"])
    #expect(
      try HEICOutputTests.exiftool(["-ExifImageWidth", "-ExifImageHeight"], avif) == ["640", "427"])
    #expect(
      try HEICOutputTests.exiftool(["-ICC_Profile:ProfileDescription"], avif) == [
        "Adobe RGB (1998)"
      ])
    #expect(try HEICOutputTests.exiftool(["-XMP-xmp:Rating"], avif) == ["4"])
    // av1C's subsampling bits: 3 (x and y) is 4:2:0, below quality 90.
    #expect(try HEICOutputTests.exiftool(["-ChromaFormat"], avif) == ["3"])
  }

  @Test func qualityNinetyKeepsFullChroma() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let avif = folder.appendingPathComponent("out.avif").path
    try renderer.renderFile(
      at: RenderFixtures.sample("coffee.png"), to: avif, state: ControlState(),
      options: StillOptions(quality: 90))
    #expect(try HEICOutputTests.exiftool(["-ChromaFormat"], avif) == ["0"])  // 4:4:4
  }
}
