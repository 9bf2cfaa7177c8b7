import Foundation
import Testing

@testable import Vips

@Suite struct ScaledJPEGTests {
  /// A photo-like `width × height` JPEG (a sample photo enlarged, with a little grain) written as `name`.
  func photo(_ name: String, in folder: URL, width: Int = 800, height: Int = 600) throws -> String {
    let sample = try Image(contentsOf: Samples.path("grace_hopper.jpg"))
    let grain = try Operation.call(
      "gaussnoise", ["width": .int(width), "height": .int(height), "mean": 0.0, "sigma": 4.0]
    ).image()
    let enlarged = try sample.resized(
      by: Double(width) / Double(sample.width), vscale: Double(height) / Double(sample.height))
    let path = folder.appendingPathComponent(name).path
    try Operation.call("add", ["left": .image(enlarged), "right": .image(grain)]).image()
      .cast(to: .uchar).write(to: path, options: SaveOptions(quality: 90))
    return path
  }

  /// The peak signal-to-noise ratio of `image` against `reference` (same size and bands), in dB.
  func psnr(_ image: Image, _ reference: Image) throws -> Double {
    let (a, b) = (try image.pixelBytes(), try reference.pixelBytes())
    #expect(a.count == b.count)
    let squared = zip(a, b).reduce(0.0) { sum, pair in
      let difference = Double(pair.0) - Double(pair.1)
      return sum + difference * difference
    }
    return 10 * log10(255 * 255 / (squared / Double(a.count)))
  }

  @Test func decodesAtEachEighthRoundingUp() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try photo("photo.jpg", in: folder)
    for (eighths, width, height) in [
      (1, 100, 75), (3, 300, 225), (5, 500, 375), (6, 600, 450), (7, 700, 525), (8, 800, 600),
    ] {
      let image = try Image(contentsOf: path, options: LoadOptions(jpegEighths: eighths))
      #expect(image.width == width && image.height == height, "\(eighths)/8")
      #expect(image.bands == 3 && image.interpretation == "srgb", "\(eighths)/8")
    }
    // libvips's own 1/2 is used when asked for: no smaller M/8 is decoded then.
    let halved = try Image(contentsOf: path, options: LoadOptions(shrink: 2, jpegEighths: 5))
    #expect(halved.width == 400 && halved.height == 300)
  }

  @Test func aScaledDecodeAndResizeIsCloseToAFullOne() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try photo("photo.jpg", in: folder, width: 4000, height: 3000)
    let full = try Image(contentsOf: path).thumbnailed(width: 2048, height: 1536)
    // 5/8 is what `--size 2048` picks for this photo (at least 1.2× the output).
    let scaled = try Image(contentsOf: path, options: LoadOptions(jpegEighths: 5))
    #expect(scaled.width == 2500 && scaled.height == 1875)
    let fitted = try scaled.thumbnailed(width: 2048, height: 1536)
    let quality = try psnr(fitted, full)
    #expect(quality >= 40, "PSNR \(quality) dB")
    // Decoding at the output size itself (4/8 here is below it) loses visibly more.
    let tight = try Image(contentsOf: path, options: LoadOptions(jpegEighths: 4))
      .thumbnailed(width: 2048, height: 1536)
    #expect(try psnr(tight, full) < quality)
  }

  @Test func keepsTheFilesMetadataAndTurnsARotatedPhotoUpright() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let profile = try Vips.builtinICCProfile("p3")
    let xmp = Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>"#.utf8)
    let tagged = try Image(contentsOf: Samples.path("rocket_exif_rotated.jpg")).editingMetadata {
      $0.setBlob(Image.iccProfileField, profile)
      $0.setBlob(Image.xmpField, xmp)
    }
    let path = folder.appendingPathComponent("tagged.jpg").path
    try tagged.write(to: path, options: SaveOptions(quality: 90))
    let full = try Image(contentsOf: path)
    #expect(full.orientation == 6 && full.width == 427 && full.height == 640)
    let scaled = try Image(contentsOf: path, options: LoadOptions(jpegEighths: 4))
    #expect(scaled.width == 214 && scaled.height == 320)
    #expect(try scaled.blob(Image.iccProfileField) == profile)
    #expect(try scaled.blob(Image.xmpField) == full.blob(Image.xmpField))
    #expect(try scaled.blob("exif-data") == full.blob("exif-data"))
    #expect(scaled.orientation == 6)
    #expect(try scaled.int(Image.jpegQualityField) == full.int(Image.jpegQualityField))
    let upright = try Image(
      contentsOf: path, options: LoadOptions(autoRotate: true, jpegEighths: 4))
    #expect(upright.width == 320 && upright.height == 214 && upright.orientation == 1)
    let reference = try full.autoRotated().thumbnailed(width: 256, height: 171)
    #expect(try psnr(upright.thumbnailed(width: 256, height: 171), reference) >= 35)
  }

  @Test func damagedDataIsRefusedUnlessToldToDecodeWhatItCan() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: try photo("photo.jpg", in: folder)))
    let cut = folder.appendingPathComponent("cut.jpg").path
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
    #expect {
      try Image(contentsOf: cut, options: LoadOptions(jpegEighths: 3))
    } throws: { error in
      (error as? VipsError)?.message.hasPrefix(
        "\(cut): cannot decode the image: Premature end of JPEG") == true
    }
    let anyway = try Image(contentsOf: cut, options: LoadOptions(failOn: .none, jpegEighths: 3))
    #expect(anyway.width == 300 && anyway.height == 225)
    let garbage = folder.appendingPathComponent("garbage.jpg").path
    try (bytes.prefix(400) + Data(repeating: 0x5A, count: 4000)).write(
      to: URL(fileURLWithPath: garbage))
    #expect(throws: VipsError.self) {
      try Image(contentsOf: garbage, options: LoadOptions(jpegEighths: 3))
    }
  }

  @Test func greyIsScaledAndCMYKFallsBackToLibvips() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let colour = try Image(contentsOf: try photo("photo.jpg", in: folder))
    let grey = folder.appendingPathComponent("grey.jpg").path
    try colour.colourspace("b-w").write(to: grey)
    let scaledGrey = try Image(contentsOf: grey, options: LoadOptions(jpegEighths: 3))
    #expect(scaledGrey.width == 300 && scaledGrey.bands == 1 && scaledGrey.interpretation == "b-w")
    let cmyk = folder.appendingPathComponent("cmyk.jpg").path
    try Operation.call(
      "icc_export", ["in": .image(colour), "output_profile": "cmyk", "depth": 8]
    ).image().write(to: cmyk)
    // libjpeg-turbo is not asked to decode CMYK: libvips does, at the power-of-two shrink given.
    let whole = try Image(contentsOf: cmyk, options: LoadOptions(jpegEighths: 3))
    #expect(whole.width == 800 && whole.bands == 4 && whole.interpretation == "cmyk")
    let halved = try Image(contentsOf: cmyk, options: LoadOptions(shrink: 2, jpegEighths: 1))
    #expect(halved.width == 400 && halved.bands == 4)
  }

  @Test func thePixelLimitIsCheckedOnTheScaledSize() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try photo("photo.jpg", in: folder)
    #expect(
      throws: VipsError(
        "\(path): image is 500×375 (0.2 megapixels), over the pixel limit of 0.1 megapixels")
    ) {
      try Image(contentsOf: path, options: LoadOptions(pixelLimit: 100_000, jpegEighths: 5))
    }
    let small = try Image(
      contentsOf: path, options: LoadOptions(pixelLimit: 100_000, jpegEighths: 3))
    #expect(small.width * small.height == 300 * 225)
  }
}
