import Foundation
import HEIF
import Vips

/// HDR photos as an iPhone stores them, for the gain map tests: the coffee sample as a HEIC's primary
/// picture and a smooth Apple HDR gain map as its auxiliary image, written by libheif.
package enum HDRPhotos {
  /// Writes a `width × height` HDR HEIC at `path` (quality 95, x265 ultrafast) with `samples` as its
  /// `width / 2 × height / 2` gain map (by default ramps, bright across and down), `exif` and the
  /// map's own `mapXMP`; returns the gain map as written. Its picture is `rgb` (three bytes a pixel),
  /// by default the coffee sample.
  @discardableResult
  package static func write(
    _ path: String, width: Int, height: Int, rgb: [UInt8]? = nil, samples: [UInt8]? = nil,
    exif: Data? = nil, mapXMP: Data? = nil
  ) throws -> HEIFAuxiliaryPicture {
    let picture =
      try rgb.map { try HEIFPicture(rgb: $0, width: width, height: height) }
      ?? coffee(width: width, height: height)
    let (mapWidth, mapHeight) = (width / 2, height / 2)
    let ramps = (0..<(mapWidth * mapHeight)).map { (index: Int) -> UInt8 in
      UInt8(min(255, (index % mapWidth) * 2 + index / mapWidth))
    }
    let map = HEIFAuxiliaryPicture(
      type: HEIFAuxiliaryImage.appleHDRGainMapType, width: mapWidth, height: mapHeight,
      samples: samples ?? ramps, xmp: mapXMP)
    try picture.write(
      to: path, encoding: HEIFEncoding(quality: 95, preset: .ultrafast),
      metadata: HEIFMetadata(exif: exif), auxiliary: [map])
    return map
  }

  /// The coffee sample resized to `width × height`, in libheif's picture memory, ready to write.
  package static func coffee(width: Int, height: Int) throws -> HEIFPicture {
    let sample = try Image(contentsOf: CLIRunner.sample("coffee.png"))
    let photo = try sample.resized(
      by: Double(width) / Double(sample.width), vscale: Double(height) / Double(sample.height))
    let picture = try HEIFPicture(width: width, height: height, hasAlpha: false)
    try picture.withPixels { rows, stride in
      try photo.render(
        into: rows, layout: FrameLayout(width: width, height: height, bands: 3, rowStride: stride))
    }
    return picture
  }
}

extension HEIFPicture {
  /// A picture of `width × height` pixels from packed RGB bytes.
  package convenience init(rgb: [UInt8], width: Int, height: Int) throws {
    try self.init(width: width, height: height, hasAlpha: false)
    try withPixels { rows, stride in
      for row in 0..<height {
        for byte in 0..<(width * 3) {
          rows[row * stride + byte] = rgb[(row * width) * 3 + byte]
        }
      }
    }
  }
}
