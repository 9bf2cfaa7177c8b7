import ColourTransfer
import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// Auto white balance on pictures far wider than high: the sample keeps at least one row.
@Suite struct AutoWhiteBalanceSamplingTests {
  /// A warm `width` × `height` RGB picture: every pixel's red above its green above its blue.
  static func warmPixels(width: Int, height: Int) -> [UInt8] {
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * 3)
    for index in 0..<(width * height) {
      let level = 60 + (index % 25) * 6
      pixels += [UInt8(level + 40), UInt8(level), UInt8(level - 40)]
    }
    return pixels
  }

  @Test func theSampleOfAVeryWidePictureKeepsARow() {
    #expect(AutoWhiteBalance.sampleFactors(width: 1920, height: 29, sampleWidth: 64) == (30, 29))
    #expect(AutoWhiteBalance.sampleFactors(width: 1920, height: 1080, sampleWidth: 64) == (30, 30))
    #expect(AutoWhiteBalance.sampleFactors(width: 40, height: 1, sampleWidth: 64) == (1, 1))
    #expect(AutoWhiteBalance.sampleFactors(width: 30_000, height: 1, sampleWidth: 512) == (58, 1))
  }

  @Test func gainsOfA1920By29FrameAreMeasuredOnItsFirstRow() throws {
    let (width, height) = (1920, 29)
    let pixels = Self.warmPixels(width: width, height: height)
    let image = try Image.fromPixels(pixels, width: width, height: height, bands: 3)
    let gains = try AutoWhiteBalance.gains(
      of: image, sampleWidth: AutoWhiteBalance.frameSampleWidth)
    // Every 30th pixel of row 0, as libvips's subsample picks them.
    var sampled: [UInt8] = []
    for column in stride(from: 0, to: width, by: 30) {
      sampled += pixels[(column * 3)..<(column * 3 + 3)]
    }
    #expect(gains == AutoWhiteBalance.gains(ofPixels: sampled, bands: 3))
    #expect(gains.x < 1 && gains.z > 1)
  }

  @Test func aFrameRendererWithAutoWhiteBalanceRendersA1920By29Frame() throws {
    let (width, height) = (1920, 29)
    let pixels = Self.warmPixels(width: width, height: height)
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: .rgb24,
      controls: LiveControlState(ControlState(whiteBalance: .auto)))
    var output = [UInt8](repeating: 0, count: pixels.count)
    try pixels.withUnsafeBytes { input in
      try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
    }
    // The cast is taken out: red comes down and blue up, on average.
    func means(_ bytes: [UInt8]) -> SIMD3<Double> {
      var sum = SIMD3<Double>(repeating: 0)
      for index in stride(from: 0, to: bytes.count, by: 3) {
        sum += SIMD3(Double(bytes[index]), Double(bytes[index + 1]), Double(bytes[index + 2]))
      }
      return sum / Double(bytes.count / 3)
    }
    let before = means(pixels)
    let after = means(output)
    #expect(after.x < before.x && after.z > before.z)
    #expect(abs(after.x - after.z) < abs(before.x - before.z) / 2)
  }

  @Test func aStillFarWiderThanHighIsBalancedToo() throws {
    let (width, height) = (2048, 3)
    let pixels = Self.warmPixels(width: width, height: height)
    let image = try Image.fromPixels(pixels, width: width, height: height, bands: 3)
    let gains = try AutoWhiteBalance.gains(
      of: image, sampleWidth: AutoWhiteBalance.stillSampleWidth)
    #expect(gains.x < 1 && gains.z > 1)
  }

  /// HLG codes are decoded with HLG's inverse OETF: the gains are the ratios of scene light, not of
  /// sRGB-decoded light, and pixels below 2 % of HLG's reference white are left out.
  @Test func hlgPixelsAreMeasuredInSceneLight() {
    let pixels: [UInt8] = [200, 160, 120, 200, 160, 120, 10, 10, 10]
    let gains = AutoWhiteBalance.gains(ofPixels: pixels, bands: 3, transfer: .hlg)
    func light(_ code: UInt8) -> Double { HLGTransfer.decode(Double(code) / 255) }
    #expect(abs(gains.x - light(160) / light(200)) < 1e-12)
    #expect(abs(gains.z - light(160) / light(120)) < 1e-12)
    let srgb = AutoWhiteBalance.gains(ofPixels: pixels, bands: 3)
    #expect(abs(srgb.x - gains.x) > 0.01)
  }
}
