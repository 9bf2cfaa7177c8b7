import Testing
import Vips

@testable import Raw

/// A 16-bit rendered raw written to an 8-bit format: every code rounds to the nearest 8-bit code.
@Suite struct RawQuantisingTests {
  @Test func everySixteenBitCodeRoundsToTheNearestEightBitCode() throws {
    // Three bands: each pixel holds code v in red, 65535 − v in green and v / 2 in blue.
    let samples = (0...65535).flatMap { code -> [UInt16] in
      [UInt16(code), UInt16(65535 - code), UInt16(code / 2)]
    }
    let image = try Image.fromPixels16(samples, width: 256, height: 256, bands: 3)
    let quantised = try RawStill.eightBits(image)
    #expect(quantised.format == .uchar && quantised.bands == 3)
    #expect(quantised.interpretation == "srgb")
    let codes = try quantised.pixelBytes()
    // round(v × 255 / 65535) = round(v / 257); v / 257 is never halfway between two integers.
    let wrong = zip(samples, codes).filter { Int($1) != (Int($0) + 128) / 257 }.count
    #expect(wrong == 0, "\(wrong) of \(samples.count) samples")
  }
}
