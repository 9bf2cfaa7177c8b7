import Controls
import Foundation
import RowKernels
import Testing
import Vips

@testable import FrameDial

/// The YUV 4:2:0 frame renderer: identity frames copied bit for bit; other states rendered on RGB
/// between FrameDial's own conversions, 8-bit colour states in one pass with the same codes.
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

/// The one-pass render of 8-bit colour states against the route it replaces: the whole frame to rgb24,
/// the RGB frame renderer, back to YUV.
@Suite(.serialized) struct YUVOnePassTests {
  static let layouts = [
    YUV420Layout(width: 64, height: 48, depth: 8, matrix: .bt601, range: .tv),
    // Odd sizes, a width with a part block after whole SIMD blocks (64 and 32 pixels), full range.
    YUV420Layout(width: 97, height: 51, depth: 8, matrix: .bt709, range: .pc),
    YUV420Layout(width: 130, height: 67, depth: 8, matrix: .bt709, range: .tv),
  ]

  static let states: [ControlState] = [
    // Per-channel tables only.
    ControlState(exposureBias: 0.5, contrast: 1.2, whiteBalance: .preset(.tungsten)),
    // Channel mixing (saturation).
    ControlState(exposureBias: 0.5, saturation: 1.3, whiteBalance: .preset(.tungsten)),
    ControlState(filter: .vivid),
  ]

  func threePass(_ frame: [UInt8], _ layout: YUV420Layout, _ state: ControlState) throws -> [UInt8]
  {
    let converter = try YUV420Converter(layout)
    let rgb = try converter.packedRGB(fromYUV: frame)
    let renderer = try FrameRenderer(
      width: layout.width, height: layout.height, pixelFormat: .rgb24,
      controls: LiveControlState(state))
    var rendered = [UInt8](repeating: 0, count: rgb.count)
    try rgb.withUnsafeBytes { input in
      try rendered.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
    }
    return try converter.packedYUV(fromRGB: rendered)
  }

  @Test(arguments: layouts)
  func givesTheCodesOfTheThreePassRoute(_ layout: YUV420Layout) throws {
    let frame = try YUVFrameRendererTests().photoFrame(layout)
    for (index, state) in Self.states.enumerated() {
      let expected = try threePass(frame, layout, state)
      let rendered = try YUVFrameRendererTests().render(frame, layout, state: state)
      let mismatches = zip(expected, rendered).filter { $0 != $1 }.count
      #expect(mismatches == 0, "state \(index)")
      // The state changes the frame: the comparison is not between two copies.
      #expect(zip(frame, rendered).filter { $0 != $1 }.count > frame.count / 4, "state \(index)")
      // Every kernel path this CPU has (AVX-512, AVX2, portable scalar) gives the same codes.
      defer { KernelPath.force(nil) }
      for path in KernelPath.available {
        KernelPath.force(path)
        let slower = try YUVFrameRendererTests().render(frame, layout, state: state)
        #expect(zip(expected, slower).filter { $0 != $1 }.count == 0, "state \(index), \(path)")
      }
    }
  }

  @Test func theOnePassTakesOnlyEightBitFrames() throws {
    let layout = YUV420Layout(width: 32, height: 16, depth: 10, matrix: .bt709, range: .tv)
    let converter = try YUV420Converter(layout)
    let rows = try ColourRows(lookupTables: (0..<768).map { UInt8($0 % 256) })
    var frame = [UInt8](repeating: 0, count: layout.frameBytes)
    let error = frame.withUnsafeMutableBytes { bytes -> RowKernelError? in
      guard let base = bytes.baseAddress else { return nil }
      let planes = converter.planes(of: base)
      do {
        try converter.transform(
          planes, into: planes.map { UnsafeMutableRawPointer(mutating: $0.base) },
          strides: planes.map(\.stride), through: rows)
        return nil
      } catch { return error as? RowKernelError }
    }
    #expect(error?.message.contains("8-bit") == true)
  }
}

extension YUV420Layout: CustomTestStringConvertible {
  public var testDescription: String {
    "\(width)x\(height) \(depth)-bit \(matrix.rawValue) \(range.rawValue)"
  }
}
