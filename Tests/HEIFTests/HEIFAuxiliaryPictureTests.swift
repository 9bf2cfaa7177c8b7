import Foundation
import HEIF
import TestSupport
import Testing

/// An auxiliary picture (an HDR gain map) written beside a HEIF picture
/// (``HEIFPicture/write(to:encoding:metadata:auxiliary:)``) and read back by libheif
/// (``HEIFFile/decodeAuxiliaryImage(type:)``) and exiftool.
@Suite struct HEIFAuxiliaryPictureTests {
  static let gainMapXMP = Data(
    """
    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
    <rdf:Description rdf:about="" xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/" \
    HDRGainMap:HDRGainMapVersion="65536"/></rdf:RDF></x:xmpmeta>
    """.utf8)

  /// A 96 × 64 photo-like picture (smooth ramps in each channel).
  static func picture() throws -> HEIFPicture {
    let picture = try HEIFPicture(width: 96, height: 64, hasAlpha: false)
    try picture.withPixels { rows, stride in
      for y in 0..<64 {
        for x in 0..<96 {
          rows[y * stride + x * 3] = UInt8(x * 2)
          rows[y * stride + x * 3 + 1] = UInt8(y * 3)
          rows[y * stride + x * 3 + 2] = UInt8(128)
        }
      }
    }
    return picture
  }

  /// A 48 × 32 gain map: a smooth ramp from 0 to 248 across, brighter down the rows.
  static func gainMap() -> HEIFAuxiliaryPicture {
    let samples = (0..<(48 * 32)).map { (index: Int) -> UInt8 in
      UInt8(min(255, (index % 48) * 4 + (index / 48) * 2))
    }
    return HEIFAuxiliaryPicture(
      type: HEIFAuxiliaryImage.appleHDRGainMapType, width: 48, height: 32, samples: samples,
      xmp: gainMapXMP)
  }

  @Test(arguments: [HEIFEncoding.Codec.hevc(preset: .ultrafast, parameters: []), .av1(speed: 9)])
  func aGainMapIsWrittenAsAnAuxiliaryImageOfThePrimary(codec: HEIFEncoding.Codec) throws {
    let root = try CLIRunner.scratchFolder("heif-aux-write")
    defer { try? FileManager.default.removeItem(at: root) }
    let path = root.appendingPathComponent("hdr.heic").path
    let map = Self.gainMap()
    try Self.picture().write(
      to: path, encoding: HEIFEncoding(quality: 95, codec: codec), metadata: HEIFMetadata(),
      auxiliary: [map])

    let file = try HEIFFile(path: path)
    #expect(file.size == (96, 64))
    let listed = try file.auxiliaryImages()
    #expect(listed.map(\.type) == [HEIFAuxiliaryImage.appleHDRGainMapType])
    let first = try #require(listed.first)
    #expect((first.width, first.height, first.bitDepth) == (48, 32, 8))
    let read = try #require(try file.decodeAuxiliaryImage(type: map.type))
    #expect((read.width, read.height) == (48, 32))
    let largest = zip(read.samples, map.samples).map { abs(Int($0) - Int($1)) }.max() ?? 255
    #expect(largest <= 2, "largest difference \(largest)")
    #expect(read.xmp == Self.gainMapXMP)
    #expect(try file.decodeAuxiliaryImage(type: "urn:example:none") == nil)
    // exiftool reads the type from the auxC box, and the map's XMP as Apple's.
    let tags = try VideoClips.run(
      "exiftool", ["-s3", "-AuxiliaryImageType", "-HDRGainMapVersion", path]
    ).output
    #expect(
      tags.split(separator: "\n") == [
        Substring(HEIFAuxiliaryImage.appleHDRGainMapType), "65536",
      ], "\(tags)")
  }

  @Test func aGainMapWhoseSamplesDoNotFillItIsRefused() throws {
    let root = try CLIRunner.scratchFolder("heif-aux-refused")
    defer { try? FileManager.default.removeItem(at: root) }
    let path = root.appendingPathComponent("bad.heic").path
    var map = Self.gainMap()
    map.samples.removeLast()
    #expect {
      try Self.picture().write(
        to: path, encoding: HEIFEncoding(quality: 80, preset: .ultrafast), metadata: HEIFMetadata(),
        auxiliary: [map])
    } throws: { error in
      "\(error)".contains("48×32 with 1535 samples")
    }
  }
}
