import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// Zoom windows are real-valued: a zoom of 1.01 moves the picture even where a whole-pixel window would
/// not, and every output pixel samples the input where the documented geometry says.
@Suite struct SubPixelZoomTests {
  /// A 40 × 30 picture with detail everywhere: red a ramp across (2 x + 10), green and blue waves.
  static func textured(width: Int = 40, height: Int = 30) throws -> (Image, [UInt8]) {
    var pixels: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let wave = 128 + 100 * sin(Double(x) * 0.7 + Double(y) * 0.4)
        let other = 128 + 90 * cos(Double(y) * 0.9 - Double(x) * 0.3)
        pixels += [UInt8(2 * x + 10), UInt8(wave.rounded()), UInt8(other.rounded())]
      }
    }
    return (try Image.fromPixels(pixels, width: width, height: height, bands: 3), pixels)
  }

  private func still(_ image: Image, _ state: ControlState, _ kernel: ZoomKernel) throws -> [UInt8]
  {
    try StillRenderer().render(image, state: state, options: StillOptions(zoomKernel: kernel))
      .pixelBytes()
  }

  private func frame(_ pixels: [UInt8], width: Int, height: Int, _ state: ControlState) throws
    -> [UInt8]
  {
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: .rgb24, controls: LiveControlState(state))
    var output = [UInt8](repeating: 0, count: pixels.count)
    try pixels.withUnsafeBytes { input in
      try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
    }
    return output
  }

  @Test(arguments: ZoomKernel.allCases)
  func stillsAtZoomOnePointZeroOneDifferFromOneAndFromOnePointZeroTwo(kernel: ZoomKernel) throws {
    let (image, pixels) = try Self.textured()
    // Zoom 1 is not resampled: bit for bit the input.
    #expect(try still(image, ControlState(zoom: 1), kernel) == pixels)
    // 40 / 1.01 = 39.6: a whole-pixel window rounded it to 40, the whole picture, unchanged.
    let slight = try still(image, ControlState(zoom: 1.01), kernel)
    let more = try still(image, ControlState(zoom: 1.02), kernel)
    #expect(slight != pixels)
    #expect(slight != more)
    #expect(more != pixels)
  }

  @Test func framesAtZoomOnePointZeroOneDifferFromOneAndFromOnePointZeroTwo() throws {
    let (_, pixels) = try Self.textured()
    #expect(try frame(pixels, width: 40, height: 30, ControlState(zoom: 1)) == pixels)
    let slight = try frame(pixels, width: 40, height: 30, ControlState(zoom: 1.01))
    let more = try frame(pixels, width: 40, height: 30, ControlState(zoom: 1.02))
    #expect(slight != pixels && slight != more && more != pixels)
  }

  @Test(arguments: ZoomKernel.allCases)
  func everyOutputColumnSamplesTheDocumentedPosition(kernel: ZoomKernel) throws {
    // Red is 2 x + 10: output column X must show 2 (left + (X + 0.5) · w / W − 0.5) + 10.
    let (image, pixels) = try Self.textured(width: 100, height: 20)
    let state = ControlState(zoom: 1.3, zoomCenter: ZoomCenter(x: 0.4, y: 0.5))
    let window = ZoomWindow(
      imageWidth: 100, imageHeight: 20, zoom: 1.3, center: state.zoomCenter)
    #expect(window.left.rounded() != window.left)  // 40 − 38.46 / 2 = 20.77: between pixels
    var outputs = [("still", try still(image, state, kernel))]
    if kernel == .bilinear {
      outputs.append(("frame", try frame(pixels, width: 100, height: 20, state)))
    }
    for (path, bytes) in outputs {
      for x in 0..<100 {
        let position = window.left + (Double(x) + 0.5) * window.width / 100 - 0.5
        let expected = 2 * position + 10
        let red = Double(bytes[(10 * 100 + x) * 3])
        #expect(abs(red - expected) <= 1, "\(path) \(kernel) column \(x): \(red) vs \(expected)")
      }
    }
  }

  @Test func aSizedStillKeepsTheSubPixelWindow() throws {
    // The window brought down to 40 wide: red follows 2 (left + (X + 0.5) · w / 40 − 0.5) + 10.
    let (image, _) = try Self.textured(width: 120, height: 40)
    let state = ControlState(zoom: 1.3, zoomCenter: ZoomCenter(x: 0.4, y: 0.5))
    let window = ZoomWindow(
      imageWidth: 120, imageHeight: 40, zoom: 1.3, center: state.zoomCenter)
    let sized = try StillRenderer().render(image, state: state, outputSize: (40, 13))
    #expect(sized.width == 40 && sized.height == 13)
    let bytes = try sized.pixelBytes()
    for x in 0..<40 {
      let position = window.left + (Double(x) + 0.5) * window.width / 40 - 0.5
      // Where Lanczos 3's reach (3 output pixels) stays inside the picture (edges repeat outside).
      let reach = 3 * window.width / 40
      guard position - reach >= 0 && position + reach <= 119 else { continue }
      let expected = 2 * position + 10
      let red = Double(bytes[(6 * 40 + x) * 3])
      #expect(abs(red - expected) <= 1.5, "column \(x): \(red) vs \(expected)")
    }
  }

  @Test func aSizedStillKeepsTransparentColoursOutOfOpaquePixels() throws {
    // Opaque grey with a transparent pure-red stripe: premultiplied resampling keeps the red out.
    var pixels: [UInt8] = []
    for _ in 0..<40 {
      for x in 0..<120 { pixels += (50..<60).contains(x) ? [255, 0, 0, 0] : [100, 100, 100, 255] }
    }
    let image = try Operation.call(
      "copy",
      [
        "in": .image(try Image.fromPixels(pixels, width: 120, height: 40, bands: 4)),
        "interpretation": "srgb",
      ]
    ).image()
    #expect(image.hasAlpha)
    let sized = try StillRenderer().render(
      image, state: ControlState(zoom: 1.3), outputSize: (40, 13))
    let bytes = try sized.pixelBytes()
    for pixel in stride(from: 0, to: bytes.count, by: 4) where bytes[pixel + 3] >= 128 {
      #expect(abs(Int(bytes[pixel]) - Int(bytes[pixel + 1])) <= 2, "pixel \(pixel / 4)")
    }
  }
}
