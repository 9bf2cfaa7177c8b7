import Foundation
import Testing

@testable import Vips

/// FrameDial's fused kernels against a plain Swift reference, on sizes that exercise every SIMD path and
/// its scalar tail (the CPU's widest path runs; the tails run everywhere).
@Suite struct KernelTests {
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state ^ (state >> 29)
    }
  }

  @Test(arguments: [
    (1, 1, 1), (37, 23, 3), (64, 3, 3), (200, 7, 1), (1920, 4, 3), (31, 5, 2), (45, 9, 4),
  ])
  func lookupTablesMatchTheReferenceExactly(width: Int, height: Int, bands: Int) throws {
    var random = Seeded(state: UInt64(width * 1000 + height * 10 + bands))
    let pixels = (0..<(width * height * bands)).map { _ in UInt8(truncatingIfNeeded: random.next())
    }
    let colourBands = bands >= 3 ? 3 : 1
    let tables = (0..<(colourBands * 256)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let image = try Image.fromPixels(pixels, width: width, height: height, bands: bands)
    let result = try image.applyingLookupTables(tables, colourBands: colourBands).pixelBytes()
    var mismatches = 0
    for index in pixels.indices {
      let band = index % bands
      let expected = band < colourBands ? tables[band * 256 + Int(pixels[index])] : pixels[index]
      if result[index] != expected { mismatches += 1 }
    }
    #expect(mismatches == 0)
  }

  @Test func channelMixMatchesTheReference() throws {
    var random = Seeded(state: 99)
    let width = 301
    let height = 7
    let pixels = (0..<(width * height * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let input: [Float] = (0..<768).map { entry -> Float in
      let level = Float(entry % 256) / 255
      return level * Float(1 + entry / 256) / 2
    }
    let matrix: [Float] = [1.2, -0.15, -0.05, -0.1, 1.3, -0.2, 0.05, -0.3, 1.25]
    let count = 3000
    let output = (0..<(3 * count)).map { UInt8(min(255, ($0 % count) * 255 / (count - 1))) }
    let scale: Float = 1500
    let result = try Image.fromPixels(pixels, width: width, height: height, bands: 3)
      .applyingChannelMix(inputTables: input, matrix: matrix, outputTables: output, scale: scale)
      .pixelBytes()
    var worst = 0
    for pixel in 0..<(width * height) {
      let linear = (0..<3).map { input[$0 * 256 + Int(pixels[pixel * 3 + $0])] }
      for channel in 0..<3 {
        var mixed: Float = matrix[channel * 3] * linear[0]
        mixed += matrix[channel * 3 + 1] * linear[1]
        mixed += matrix[channel * 3 + 2] * linear[2]
        let position = mixed * scale + 0.5
        let index = position > 0 ? min(Int(position), count - 1) : 0
        let expected = Int(output[channel * count + index])
        // Exact but for float summation order, which may move an index by one step of the table.
        worst = max(worst, abs(Int(result[pixel * 3 + channel]) - expected))
      }
    }
    #expect(worst <= 1)
  }
}
