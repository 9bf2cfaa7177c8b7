import Testing

@testable import Vips

@Suite struct AdoptedMemoryTests {
  /// How many times samples were freed.
  final class Counter {
    var count = 0
  }

  /// Samples in memory of their own, counting when they are freed.
  final class Samples<Sample> {
    let buffer: UnsafeMutableBufferPointer<Sample>
    let freed: Counter

    init(_ values: [Sample], freed: Counter) {
      buffer = .allocate(capacity: values.count)
      _ = buffer.initialize(from: values)
      self.freed = freed
    }

    deinit {
      buffer.deallocate()
      freed.count += 1
    }
  }

  @Test func theImageReadsTheSamplesInPlaceAndFreesThemWithTheLastImageMadeFromIt() throws {
    let freed = Counter()
    let values: [UInt16] = (0..<(5 * 3 * 3)).map { UInt16($0 * 1000 + 7) }
    var derived: Image?
    do {
      let samples = Samples(values, freed: freed)
      let image = try Image.adopting16(
        UnsafeBufferPointer(samples.buffer), width: 5, height: 3, bands: 3, owner: samples)
      #expect(image.width == 5 && image.height == 3 && image.bands == 3)
      #expect(image.format == .ushort && image.interpretation == "rgb16")
      // Read in place: a change to the memory before the pixels are computed shows in them.
      samples.buffer[4] = 65535
      derived = try image.linear([1], [1])
    }
    // Both handles on the wrapped image are gone; the image made from it still needs the memory.
    #expect(freed.count == 0)
    let pixels = try #require(derived).cast(to: BandFormat.ushort).pixelBytes().withUnsafeBytes {
      Array($0.bindMemory(to: UInt16.self))
    }
    var expected = values.map { $0 + 1 }
    expected[4] = 65535  // 65 535 + 1, cast back to 16 bits, saturates
    #expect(pixels == expected)
    derived = nil
    #expect(freed.count == 1)
  }

  @Test func anEightBitImageReadsItsBytesInPlaceAsSRGB() throws {
    let freed = Counter()
    let values: [UInt8] = (0..<(4 * 2 * 3)).map { UInt8($0 * 10) }
    do {
      let samples = Samples(values, freed: freed)
      let image = try Image.adopting8(
        UnsafeBufferPointer(samples.buffer), width: 4, height: 2, bands: 3, owner: samples)
      #expect(image.format == .uchar && image.interpretation == "srgb")
      samples.buffer[5] = 255
      var expected = values
      expected[5] = 255
      #expect(try image.pixelBytes() == expected)
      #expect(freed.count == 0)
    }
    #expect(freed.count == 1)
  }

  @Test func samplesThatDoNotMakeTheImageAreRefusedAndNotFreedTwice() throws {
    let freed = Counter()
    do {
      let samples = Samples<UInt16>([1, 2, 3, 4, 5], freed: freed)
      #expect(throws: VipsError.self) {
        try Image.adopting16(
          UnsafeBufferPointer(samples.buffer), width: 2, height: 1, bands: 3, owner: samples)
      }
    }
    #expect(freed.count == 1)
  }
}
