import Foundation
import Vips

/// Sample paths, scratch folders and synthetic images for the render tests.
enum RenderFixtures {
  static let samples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("SampleImages")

  static func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }

  static let sampleNames = [
    "astronaut.png", "chelsea.png", "coffee.png", "coffee.heic", "grace_hopper.jpg", "rocket.jpg",
    "rocket_exif_rotated.jpg",
  ]

  static func scratchFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-render-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A flat 8-bit image of one colour.
  static func patch(_ pixel: [UInt8], width: Int = 8, height: Int = 6) throws -> Image {
    try Image.fromPixels(
      Array((0..<(width * height)).map { _ in pixel }.joined()), width: width, height: height,
      bands: pixel.count)
  }

  /// Every 8-bit level in each channel in turn, then `randomCount` seeded random colours: one row.
  static func sweepPixels(randomCount: Int) -> [UInt8] {
    var pixels: [UInt8] = []
    for channel in 0..<3 {
      for level in 0..<256 {
        var pixel: [UInt8] = [97, 141, 53]
        pixel[channel] = UInt8(level)
        pixels += pixel
      }
    }
    for level in 0..<256 { pixels += [UInt8(level), UInt8(level), UInt8(level)] }
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<(randomCount * 3) {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      pixels.append(UInt8(truncatingIfNeeded: seed >> 56))
    }
    return pixels
  }

  /// The decoded pixels of a file (upright), for comparisons.
  static func pixels(of path: String) throws -> (
    bytes: [UInt8], width: Int, height: Int, bands: Int
  ) {
    let image = try Image(contentsOf: path, options: LoadOptions(autoRotate: true))
    return (try image.pixelBytes(), image.width, image.height, image.bands)
  }

  /// The largest absolute difference between two byte arrays of equal length.
  static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
  }
}
