import Foundation
import Testing

@testable import FrameDial

@Suite struct EXIFUprightTests {
  /// A big-endian EXIF block: IFD0 with orientation 6 and a pointer to an EXIF IFD holding
  /// PixelXDimension 4000 (LONG) and PixelYDimension 3000 (SHORT).
  static func block() -> [UInt8] {
    var bytes = Array("Exif\0\0".utf8) + Array("MM".utf8) + [0, 42, 0, 0, 0, 8]
    func short(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    func long(_ value: Int) -> [UInt8] { short(value >> 16) + short(value & 0xFFFF) }
    // IFD0 at 8: two entries, then the next-IFD offset; the EXIF IFD follows at 8 + 2 + 24 + 4 = 38.
    bytes += short(2) + short(0x0112) + short(3) + long(1) + short(6) + short(0)
    bytes += short(0x8769) + short(4) + long(1) + long(38) + long(0)
    bytes += short(2) + short(0xA002) + short(4) + long(1) + long(4000)
    bytes += short(0xA003) + short(3) + long(1) + short(3000) + short(0) + long(0)
    return bytes
  }

  @Test func orientationAndDimensionsAreSetInPlace() {
    let original = Self.block()
    let patched = [UInt8](EXIFUpright.patched(Data(original), width: 1200, height: 900))
    #expect(patched.count == original.count)
    var expected = original
    expected[6 + 8 + 2 + 8..<6 + 8 + 2 + 10] = [0, 1]  // orientation 1
    expected[6 + 38 + 2 + 8..<6 + 38 + 2 + 12] = [0, 0, 0x04, 0xB0]  // 1200
    expected[6 + 38 + 2 + 12 + 8..<6 + 38 + 2 + 12 + 10] = [0x03, 0x84]  // 900
    #expect(patched == expected)
  }

  @Test func aBlockThatCannotBeParsedIsKeptAsItIs() {
    let cut = Data(Self.block().prefix(16))  // the header and IFD0's entry count
    #expect(EXIFUpright.patched(cut, width: 10, height: 10) == cut)
    let noise = Data("Exif\0\0XX not a TIFF header".utf8)
    #expect(EXIFUpright.patched(noise, width: 10, height: 10) == noise)
  }
}
