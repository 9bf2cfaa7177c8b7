import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// The YUV 4:2:0 frame renderer: identity frames copied bit for bit; other states rendered on RGB
/// between FrameDial's own conversions.
@Suite struct YUVFrameRendererTests {
  func render(_ frame: [UInt8], _ layout: YUV420Layout, state: ControlState) throws -> [UInt8] {
    let renderer = try YUVFrameRenderer(layout: layout, controls: LiveControlState(state))
    var output = [UInt8](repeating: 0, count: frame.count)
    try frame.withUnsafeBytes { input in
      try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
    }
    return output
  }

  /// A frame of the photo sample converted to YUV by FrameDial's conversion.
  func photoFrame(_ layout: YUV420Layout) throws -> [UInt8] {
    let photo = try Image(contentsOf: RenderFixtures.sample("coffee.png"))
      .resizedBilinear(width: layout.width, height: layout.height)
    let rgb = try (layout.depth == 8 ? photo : photo.colourspace("rgb16")).pixelBytes()
    return try YUV420Converter(layout).packedYUV(fromRGB: rgb)
  }

  static let layouts = [
    YUV420Layout(width: 64, height: 48, depth: 8, matrix: .bt601, range: .tv),
    YUV420Layout(width: 63, height: 37, depth: 10, matrix: .bt709, range: .pc),
  ]

  @Test(arguments: layouts)
  func theIdentityStateCopiesEveryByte(_ layout: YUV420Layout) throws {
    // Any bytes at all, codes outside the range and stray high bits included: nothing converts them.
    let frame = (0..<layout.frameBytes).map { (index: Int) -> UInt8 in
      UInt8(truncatingIfNeeded: index &* 131 &+ index >> 7)
    }
    #expect(try render(frame, layout, state: ControlState()) == frame)
  }

  @Test(arguments: layouts)
  func exposureBrightensLumaRepeatably(_ layout: YUV420Layout) throws {
    let frame = try photoFrame(layout)
    let brighter = try render(frame, layout, state: ControlState(exposureBias: 1))
    func meanLuma(_ bytes: [UInt8]) -> Double {
      let count = layout.width * layout.height
      var values: [Double] = []
      for index in 0..<count {
        let low = Double(bytes[layout.sampleBytes * index])
        let high = layout.sampleBytes == 1 ? 0 : Double(bytes[2 * index + 1])
        values.append(low + 256 * high)
      }
      return values.reduce(0, +) / Double(count)
    }
    let (before, after) = (meanLuma(frame), meanLuma(brighter))
    #expect(after > before * 1.2)
    #expect(brighter.count == frame.count)
    // Rendering the same frame again gives the same bytes (buffers are reused, not stale).
    #expect(try render(frame, layout, state: ControlState(exposureBias: 1)) == brighter)
  }
}

extension YUV420Layout: CustomTestStringConvertible {
  public var testDescription: String {
    "\(width)x\(height) \(depth)-bit \(matrix.rawValue) \(range.rawValue)"
  }
}
