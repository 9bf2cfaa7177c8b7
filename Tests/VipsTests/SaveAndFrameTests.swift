import Foundation
import Synchronization
import Testing

@testable import Vips

@Suite struct SaveTests {
  @Test(arguments: ImageFormat.allCases.filter { $0 != .heic && $0 != .avif })
  func everyFormatLibvipsWritesRoundTrips(format: ImageFormat) throws {
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

  /// libvips 8.14's heifsave cannot write with libheif 1.19: HEIC and AVIF are refused, saying where
  /// they are written.
  @Test(arguments: [ImageFormat.heic, .avif])
  func heicAndAVIFAreLeftToLibheif(format: ImageFormat) throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = try Image(contentsOf: Samples.path("coffee.png"))
    let name = format.rawValue.uppercased()
    #expect(
      throws: VipsError(
        "cannot encode \(format.rawValue): \(name) is written through libheif (FrameDial's HEIF "
          + "module), not libvips")
    ) { try source.encoded(as: format) }
    let path = folder.appendingPathComponent("out.\(format.rawValue)").path
    #expect(throws: VipsError.self) { try source.write(to: path) }
    #expect(!FileManager.default.fileExists(atPath: path))
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

  /// Renders the inverse of a 1024×1024 RGBA frame (strips of 64 rows) with `abandon` asked between
  /// strips; returns whether it completed, the output (0x55 where nothing was written) and the input.
  func renderInverse(abandon: @escaping @Sendable (Double) -> Bool) throws -> (
    completed: Bool, output: [UInt8], input: [UInt8], layout: FrameLayout
  ) {
    let (input, layout) = makeFrame(width: 1024, height: 1024, bands: 4, padding: 0)
    var output = [UInt8](repeating: 0x55, count: input.count)
    let completed = try input.withUnsafeBytes { source in
      let inverted = try Image(wrapping: source, layout: layout).linear([-1], [255], uchar: true)
      return try output.withUnsafeMutableBytes {
        try inverted.render(into: $0, layout: layout, abandonWhen: abandon)
      }
    }
    return (completed, output, input, layout)
  }

  /// How each row of `output` was left: true when inverted, false when untouched; nil when neither.
  func rowStates(_ run: (completed: Bool, output: [UInt8], input: [UInt8], layout: FrameLayout))
    -> [Bool?]
  {
    (0..<run.layout.height).map { y in
      let range = (y * run.layout.rowStride)..<((y + 1) * run.layout.rowStride)
      if range.allSatisfy({ run.output[$0] == 255 - run.input[$0] }) { return true }
      if range.allSatisfy({ run.output[$0] == 0x55 }) { return false }
      return nil
    }
  }

  @Test func aFrameNotAbandonedIsCompleteAndAskedBetweenStrips() throws {
    let asked = Mutex<[Double]>([])
    let run = try renderInverse { fraction in
      asked.withLock { $0.append(fraction) }
      return false
    }
    #expect(run.completed)
    #expect(rowStates(run).allSatisfy { $0 == true })
    let fractions = asked.withLock { $0 }
    // 1024 rows in 64-row strips: every band is asked before each strip after its first.
    let bands = max(1, Vips.configuration?.threads ?? ProcessInfo.processInfo.activeProcessorCount)
    #expect(fractions.count == 16 - bands)
    #expect(fractions.allSatisfy { $0 > 0 && $0 < 1 })
  }

  @Test func anAbandonedFrameStopsBeforeTheNextStrip() throws {
    let run = try renderInverse { $0 >= 0.25 }
    #expect(!run.completed)
    let rows = rowStates(run)
    #expect(rows.allSatisfy { $0 != nil }, "a strip is written whole or not at all")
    let written = rows.filter { $0 == true }.count
    #expect(written > 0 && written < 1024)
    #expect(rows[0] == true && rows[1023] == false)
  }

  @Test(arguments: [(3, 0), (3, 12), (3, 5), (4, 0)])
  func sixteenBitFramesAreWrappedAsUshortAndRenderedIntoTheCallersBuffer(
    bands: Int, padding: Int
  ) throws {
    let (width, height) = (29, 17)
    let layout = FrameLayout(
      width: width, height: height, bands: bands, sampleBytes: 2,
      rowStride: width * bands * 2 + padding)
    #expect(layout.packedRowBytes == width * bands * 2)
    var input = [UInt8](repeating: 0xEE, count: layout.rowStride * height)
    func sample(_ x: Int, _ y: Int) -> UInt16 { UInt16(truncatingIfNeeded: x * 977 + y * 3001) }
    for y in 0..<height {
      for x in 0..<(width * bands) {
        let value = sample(x, y)
        input[y * layout.rowStride + 2 * x] = UInt8(value & 0xFF)
        input[y * layout.rowStride + 2 * x + 1] = UInt8(value >> 8)
      }
    }
    var output = [UInt8](repeating: 0x55, count: input.count)
    try input.withUnsafeBytes { source in
      let image = try Image(wrapping: source, layout: layout)
      #expect(image.format == .ushort && image.width == width && image.bands == bands)
      let inverted = try image.linear([-1], [65535]).cast(to: .ushort)
      try output.withUnsafeMutableBytes { try inverted.render(into: $0, layout: layout) }
      // An 8-bit image does not go into a 16-bit buffer.
      #expect(throws: VipsError("the frame buffer holds ushort samples; the image is uchar")) {
        try output.withUnsafeMutableBytes {
          try image.cast(to: .uchar).render(into: $0, layout: layout)
        }
      }
    }
    for y in 0..<height {
      for x in 0..<(width * bands) {
        let index = y * layout.rowStride + 2 * x
        let value = UInt16(output[index]) | UInt16(output[index + 1]) << 8
        #expect(value == 65535 - sample(x, y))
      }
      for offset in layout.packedRowBytes..<layout.rowStride {
        #expect(output[y * layout.rowStride + offset] == 0x55, "padding must stay untouched")
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
      #expect(throws: VipsError("frame buffer holds 100 bytes; 10×6×1 16-bit needs 120")) {
        try Image(
          wrapping: raw, layout: FrameLayout(width: 10, height: 6, bands: 1, sampleBytes: 2))
      }
      #expect(throws: VipsError("frame samples are 1 or 2 bytes, not 4")) {
        try Image(wrapping: raw, layout: FrameLayout(width: 2, height: 2, bands: 1, sampleBytes: 4))
      }
    }
  }
}
