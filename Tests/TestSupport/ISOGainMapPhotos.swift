import Foundation
import HEIF

/// HDR photos with an ISO 21496-1 gain map (a `tmap` item), as libavif, Chrome and iOS 18 write them,
/// for the tests of FrameDial's reading of the form: the metadata laid out byte by byte as ISO 21496-1
/// gives it (written out here, apart from the reader under test), and the files written by libheif.
package enum ISOGainMapPhotos {
  /// One channel's values, each a numerator over a denominator.
  package struct Channel {
    package var minimum: (Int32, UInt32)
    package var maximum: (Int32, UInt32)
    package var gamma: (UInt32, UInt32)
    package var baseOffset: (Int32, UInt32)
    package var alternateOffset: (Int32, UInt32)

    package init(
      minimum: (Int32, UInt32), maximum: (Int32, UInt32), gamma: (UInt32, UInt32) = (1, 1),
      baseOffset: (Int32, UInt32) = (1, 64), alternateOffset: (Int32, UInt32) = (1, 64)
    ) {
      (self.minimum, self.maximum, self.gamma) = (minimum, maximum, gamma)
      (self.baseOffset, self.alternateOffset) = (baseOffset, alternateOffset)
    }
  }

  /// Version-0 metadata: version 0, minimum version 0, `writerVersion`, the flags byte (bit 7: three
  /// channels; bit 6: the base's colour space), both headrooms, then each channel's ten 32-bit
  /// fields, all big-endian.
  package static func metadata(
    base: (UInt32, UInt32) = (0, 1), alternate: (UInt32, UInt32), channels: [Channel],
    baseColourSpace: Bool = true, writerVersion: UInt16 = 0
  ) -> Data {
    var bytes: [UInt8] = [0, 0, 0]
    func append<T: FixedWidthInteger>(_ value: T) {
      bytes += (0..<(T.bitWidth / 8)).reversed().map {
        UInt8(truncatingIfNeeded: value >> ($0 * 8))
      }
    }
    append(writerVersion)
    bytes.append((channels.count == 3 ? 0x80 : 0) | (baseColourSpace ? 0x40 : 0))
    for (numerator, denominator) in [base, alternate] {
      append(numerator)
      append(denominator)
    }
    for channel in channels {
      append(channel.minimum.0)
      append(channel.minimum.1)
      append(channel.maximum.0)
      append(channel.maximum.1)
      append(channel.gamma.0)
      append(channel.gamma.1)
      append(channel.baseOffset.0)
      append(channel.baseOffset.1)
      append(channel.alternateOffset.0)
      append(channel.alternateOffset.1)
    }
    return Data(bytes)
  }

  /// Writes a `width × height` photo (the coffee sample) at `path` as HEIC (or, with `av1`, AVIF)
  /// with a `width / 2 × height / 2` ISO 21496-1 gain map of `metadata`; `brand` false leaves out the
  /// `tmap` brand, `apple` adds Apple's gain map and maker note as well (an iOS 18 photo's two forms).
  package static func write(
    _ path: String, width: Int, height: Int, metadata: Data, av1: Bool = false,
    brand: Bool = true, apple: Data? = nil
  ) throws {
    let (mapWidth, mapHeight) = (width / 2, height / 2)
    let samples = (0..<(mapWidth * mapHeight)).map { UInt8(truncatingIfNeeded: $0 % mapWidth * 3) }
    let encoding =
      av1
      ? HEIFEncoding(quality: 90, codec: .av1(speed: 9))
      : HEIFEncoding(quality: 95, preset: .ultrafast)
    let auxiliary =
      apple == nil
      ? []
      : [
        HEIFAuxiliaryPicture(
          type: HEIFAuxiliaryImage.appleHDRGainMapType, width: mapWidth, height: mapHeight,
          samples: samples, xmp: nil)
      ]
    try HDRPhotos.coffee(width: width, height: height).write(
      to: path, encoding: encoding, metadata: HEIFMetadata(exif: apple), auxiliary: auxiliary,
      toneMap: HEIFToneMapPicture(
        width: mapWidth, height: mapHeight, samples: samples, metadata: metadata),
      brand: brand)
  }
}
