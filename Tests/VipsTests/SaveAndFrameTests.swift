import Foundation
import Testing

@testable import Vips

@Suite struct SaveTests {
  @Test(arguments: ImageFormat.allCases)
  func everyFormatRoundTrips(format: ImageFormat) throws {
    let source = try Image(contentsOf: Samples.path("coffee.png"))
    let bytes = try source.encoded(as: format, options: SaveOptions(quality: 90))
    let decoded = try Image(bytes: bytes)
    #expect(decoded.width == 600 && decoded.height == 400)
    let difference = try Operation.call(
      "subtract", ["left": .image(decoded), "right": .image(source)]
    ).image()
    let meanAbsolute = try Operation.call("abs", ["in": .image(difference)]).image().average()
    if format == .png || format == .tiff {
      #expect(meanAbsolute == 0)
    } else {
      #expect(meanAbsolute < 4, "\(format) mean error \(meanAbsolute)")
    }
  }

  @Test func writesFilesByExtension() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.webp").path
    try Image(contentsOf: Samples.path("rocket.jpg")).write(
      to: path, options: SaveOptions(quality: 80))
    #expect(try Image(contentsOf: path).loader == "webpload")
    #expect(throws: VipsError.self) {
      try Image(contentsOf: Samples.path("rocket.jpg")).write(
        to: folder.appendingPathComponent("x.bmpx").path)
    }
    #expect(
      throws: VipsError("cannot encode jpeg: quality 101 is out of range: it must be 1 … 100")
    ) {
      try Image(contentsOf: Samples.path("rocket.jpg")).encoded(
        as: .jpeg, options: SaveOptions(quality: 101))
    }
  }

  @Test func metadataIsSetAndRemovedOnACopy() throws {
    let original = try Image(contentsOf: Samples.path("rocket_exif_rotated.jpg"))
    let upright = try original.settingOrientation(1)
    #expect(upright.orientation == 1)
    #expect(original.orientation == 6)
    let icc = Data([1, 2, 3, 4])
    let tagged = try original.editingMetadata { $0.setBlob(Image.iccProfileField, icc) }
    #expect(tagged.hasICCProfile)
    #expect(try tagged.blob(Image.iccProfileField) == icc)
    let untagged = try tagged.removingFields([Image.iccProfileField, "orientation"])
    #expect(!untagged.hasICCProfile)
    #expect(untagged.orientation == 1)
  }
}

@Suite struct FrameTests {
  /// A frame whose bytes encode their position, with `padding` bytes after each row.
  func makeFrame(width: Int, height: Int, bands: Int, padding: Int) -> ([UInt8], FrameLayout) {
    let layout = FrameLayout(
      width: width, height: height, bands: bands, rowStride: width * bands + padding)
    var bytes = [UInt8](repeating: 0xEE, count: layout.rowStride * height)
    for y in 0..<height {
      for x in 0..<(width * bands) {
        bytes[y * layout.rowStride + x] = UInt8(truncatingIfNeeded: x * 3 + y * 7)
      }
    }
    return (bytes, layout)
  }

  @Test(arguments: [(3, 0), (3, 9), (3, 5), (4, 0), (4, 8)])
  func wrappedFrameIsProcessedIntoTheCallersBuffer(bands: Int, padding: Int) throws {
    let (input, layout) = makeFrame(width: 37, height: 23, bands: bands, padding: padding)
    var output = [UInt8](repeating: 0x55, count: input.count)
    try input.withUnsafeBytes { source in
      let image = try Image(wrapping: source, layout: layout)
      #expect(image.width == 37 && image.height == 23 && image.bands == bands)
      let inverted = try image.linear([-1], [255], uchar: true)
      try output.withUnsafeMutableBytes { try inverted.render(into: $0, layout: layout) }
    }
    for y in 0..<layout.height {
      for x in 0..<layout.rowStride {
        let index = y * layout.rowStride + x
        if x < layout.packedRowBytes {
          #expect(output[index] == 255 - input[index])
        } else {
          #expect(output[index] == 0x55, "padding must stay untouched")
        }
      }
    }
  }

  @Test func badLayoutsAreErrors() throws {
    let bytes = [UInt8](repeating: 0, count: 100)
    bytes.withUnsafeBytes { raw in
      #expect(throws: VipsError("frame buffer holds 100 bytes; 10×10×3 needs 300")) {
        try Image(wrapping: raw, layout: FrameLayout(width: 10, height: 10, bands: 3))
      }
      #expect(throws: VipsError("row stride 20 is shorter than a row of 30 bytes")) {
        try Image(wrapping: raw, layout: FrameLayout(width: 10, height: 1, bands: 3, rowStride: 20))
      }
    }
  }
}
