import Foundation
import Testing

@testable import Vips

@Suite struct LoadTests {
  @Test(arguments: Samples.all)
  func everySampleLoadsWithItsHeader(name: String) throws {
    let image = try Image(contentsOf: Samples.path(name))
    #expect(image.width > 0 && image.height > 0)
    #expect(image.bands == 3)
    #expect(image.format == .uchar)
    #expect(image.interpretation == "srgb")
    let expectedLoader =
      name.hasSuffix(".png") ? "pngload" : name.hasSuffix(".heic") ? "heifload" : "jpegload"
    #expect(image.loader == expectedLoader)
    // Decoding really happens: the mean of a photo is neither black nor white.
    let mean = try image.average()
    #expect(mean > 20 && mean < 235)
  }

  @Test func sizesMatchTheSourcesTable() throws {
    let expected: [String: (Int, Int)] = [
      "astronaut.png": (512, 512), "chelsea.png": (451, 300), "coffee.png": (600, 400),
      "coffee.heic": (600, 400), "rocket.jpg": (640, 427), "grace_hopper.jpg": (512, 600),
      "rocket_exif_rotated.jpg": (427, 640),
    ]
    for (name, size) in expected {
      let header = try Image.probe(Samples.path(name))
      #expect(header.width == size.0 && header.height == size.1, "\(name)")
    }
  }

  @Test func exifRotatedSampleReadsOrientationSixAndTurnsUpright() throws {
    let stored = try Image(contentsOf: Samples.path("rocket_exif_rotated.jpg"))
    #expect(stored.orientation == 6)
    let upright = try Image(
      contentsOf: Samples.path("rocket_exif_rotated.jpg"), options: LoadOptions(autoRotate: true))
    #expect(upright.width == 640 && upright.height == 427)
    #expect(upright.orientation == 1)
    // The upright pixels match the unrotated original closely (both are JPEG-compressed copies).
    let original = try Image(contentsOf: Samples.path("rocket.jpg"))
    let difference = try Operation.call(
      "subtract", ["left": .image(upright), "right": .image(original)]
    ).image()
    let meanAbsolute = try Operation.call("abs", ["in": .image(difference)]).image().average()
    #expect(meanAbsolute < 6)
  }

  @Test func bytesLoadLikeFiles() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Samples.path("rocket.jpg")))
    let fromBytes = try Image(bytes: data)
    let fromFile = try Image(contentsOf: Samples.path("rocket.jpg"))
    let identical = try fromBytes.pixelBytes() == fromFile.pixelBytes()
    #expect(identical)
  }

  @Test func missingFileIsANamedError() {
    #expect(throws: VipsError("/nonexistent/photo.jpg: no such file")) {
      try Image(contentsOf: "/nonexistent/photo.jpg")
    }
  }

  @Test func corruptBytesAreAnError() throws {
    var data = try Data(contentsOf: URL(fileURLWithPath: Samples.path("rocket.jpg")))
    data = data.prefix(data.count / 3)
    let error = #expect(throws: VipsError.self) {
      let image = try Image(
        bytes: data, options: LoadOptions(failOn: .truncated), name: "truncated.jpg")
      _ = try image.pixelBytes()
    }
    #expect(error?.message.isEmpty == false)
    let noise = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
    #expect(throws: VipsError("noise.jpg: not a known image format")) {
      try Image(bytes: noise, name: "noise.jpg")
    }
    #expect(throws: VipsError("empty.jpg: empty data")) {
      try Image(bytes: Data(), name: "empty.jpg")
    }
  }

  /// A search for a loader that finds none is no trace of damage: data no loader recognises, from a
  /// buffer or from a file, leaves no libvips error behind for a decoding check to count.
  @Test func anUnknownFormatRaisesNoDecoderTrace() throws {
    let noise = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-noise-\(UUID().uuidString).bin")
    try noise.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let mark = Vips.errorMark()
    #expect(throws: VipsError.self) { try Image(bytes: noise, name: "noise.bin") }
    #expect(throws: VipsError.self) { try Image(contentsOf: file.path) }
    #expect(Image.loaderName(forFile: file.path) == nil)
    #expect(!Vips.errorsRaised(since: mark))
    // A real failure after it is still counted.
    #expect(throws: VipsError.self) { try Operation.call("no_such_operation", [:]) }
    #expect(Vips.errorsRaised(since: mark))
  }

  @Test func onlyLoaderSearchMessagesAreUnknownFormats() {
    #expect(ErrorJournal.isUnknownFormat("VipsForeignLoad: \"a.bin\" is not a known file format"))
    #expect(ErrorJournal.isUnknownFormat("VipsForeignLoad: source is not in a known format"))
    #expect(ErrorJournal.isUnknownFormat("VipsForeignLoad: buffer is not in a known format"))
    #expect(!ErrorJournal.isUnknownFormat("jpegload: Premature end of JPEG file"))
    #expect(!ErrorJournal.isUnknownFormat("VipsForeignLoad: \"a.jpg\" is not a known file"))
    #expect(!ErrorJournal.isUnknownFormat("heifload: source is not in a known format"))
  }

  @Test func decodingEveryPixelFindsTruncatedData() throws {
    let whole = try Data(contentsOf: URL(fileURLWithPath: Samples.path("rocket.jpg")))
    try Image(bytes: whole, name: "rocket.jpg").decodeEveryPixel()
    // The header survives the cut, so loading succeeds; the missing scans show when pixels are read.
    let cut = try Image(bytes: whole.prefix(whole.count / 2), name: "cut.jpg")
    #expect(throws: VipsError("cannot decode the image: VipsJpeg: Premature end of input file")) {
      try cut.decodeEveryPixel()
    }
  }

  @Test func pixelLimitIsCheckedFromTheHeader() throws {
    let path = Samples.path("astronaut.png")  // 512 × 512 = 262,144 pixels
    #expect(try Image(contentsOf: path, options: LoadOptions(pixelLimit: 512 * 512)).width == 512)
    let error = #expect(throws: VipsError.self) {
      try Image(contentsOf: path, options: LoadOptions(pixelLimit: 512 * 512 - 1))
    }
    #expect(error?.message.contains("512×512") == true)
    #expect(error?.message.contains("over the pixel limit") == true)
  }
}

@Suite struct UntrustedLoaderTests {
  @Test func untrustedLoadersAreBlockedUnlessAllowed() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let svg = folder.appendingPathComponent("square.svg").path
    try Data(
      #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"><rect width="8" height="6" fill="red"/></svg>"#
        .utf8
    ).write(to: URL(fileURLWithPath: svg))
    try Vips.start()
    let error = #expect(throws: VipsError.self) { try Image(contentsOf: svg) }
    #expect(
      error?.message == "\(svg): format not allowed (svgload is one of libvips's untrusted loaders)"
    )
    try Vips.start(.init(allowUntrustedLoaders: true))
    defer { try? Vips.start() }
    let image = try Image(contentsOf: svg)
    #expect(image.width == 8 && image.height == 6)
  }
}
