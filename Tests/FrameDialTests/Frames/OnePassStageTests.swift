import Controls
import Foundation
import RowKernels
import Testing
import Vips

@testable import FrameDial

/// A second stage that keeps every bit of a sample in its byte (the sample's two bytes folded
/// together), so that a code changed by the colour changes the stage's output.
private final class FoldedBytes: RGB48RowStage {
  func map(_ input: UnsafePointer<UInt16>, into output: UnsafeMutablePointer<UInt8>, pixels: Int) {
    for index in 0..<(3 * pixels) {
      output[index] = UInt8(truncatingIfNeeded: input[index] ^ input[index] >> 8)
    }
  }

  /// The stage over a whole frame of 16-bit samples held as bytes.
  func mapped(_ bytes: [UInt8]) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: bytes.count / 2)
    bytes.withUnsafeBytes { input in
      output.withUnsafeMutableBufferPointer { output in
        guard let samples = input.baseAddress?.assumingMemoryBound(to: UInt16.self),
          let target = output.baseAddress
        else { return }
        map(samples, into: target, pixels: output.count / 3)
      }
    }
    return output
  }
}

/// ``FrameRenderer/renderOnePass(_:then:into:)``: a 16-bit frame through the colour state and a
/// second stage row by row gives what rendering the whole frame and then running the stage gives.
@Suite struct OnePassStageTests {
  /// The photo sample as a 16-bit RGB frame of `width × height`.
  static func photo(width: Int, height: Int) throws -> [UInt8] {
    try Image(contentsOf: RenderFixtures.sample("coffee.png"))
      .resizedBilinear(width: width, height: height).colourspace("rgb16").pixelBytes()
  }

  /// The frame one pass gives (nil when the state is not one-pass) and the output buffer after it.
  static func onePass(
    _ frame: [UInt8], width: Int, height: Int, state: ControlState, encoding: ColourEncoding
  ) throws -> (generation: UInt64?, output: [UInt8]) {
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: .rgb48, controls: LiveControlState(state),
      encoding: encoding)
    var output = [UInt8](repeating: 0xAB, count: width * height * 3)
    let generation = try frame.withUnsafeBytes { input in
      try output.withUnsafeMutableBytes {
        try renderer.renderOnePass(input, then: FoldedBytes(), into: $0)
      }
    }
    return (generation, output)
  }

  static let states = [
    ControlState(exposureBias: 0.5, contrast: 1.2, whiteBalance: .preset(.tungsten)),
    ControlState(
      exposureBias: 0.5, contrast: 1.2, saturation: 1.3, whiteBalance: .preset(.tungsten)),
    ControlState(filter: .vivid),
  ]

  /// Colour states in HLG and sRGB, on a small frame (one band of rows) and on one large enough to
  /// be split between threads.
  @Test(arguments: states, [ColourEncoding.bt2100HLG, .sRGB])
  func onePassGivesTheWholeFrameRenderThenTheStage(state: ControlState, encoding: ColourEncoding)
    throws
  {
    for (width, height) in [(97, 61), (403, 219)] {
      let frame = try Self.photo(width: width, height: height)
      let renderer = try FrameRenderer(
        width: width, height: height, pixelFormat: .rgb48, controls: LiveControlState(state),
        encoding: encoding)
      var rendered = [UInt8](repeating: 0, count: frame.count)
      try frame.withUnsafeBytes { input in
        try rendered.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
      }
      let expected = FoldedBytes().mapped(rendered)
      let (generation, output) = try Self.onePass(
        frame, width: width, height: height, state: state, encoding: encoding)
      #expect(generation != nil)
      // Counted, not compared with ==: a failed == on long arrays is diffed for minutes.
      #expect(zip(output, expected).filter { $0 != $1 }.count == 0, "\(width)×\(height)")
      #expect(output != FoldedBytes().mapped(frame), "the colour changed nothing")
    }
  }

  @Test func theIdentityStateRunsTheStageAlone() throws {
    let frame = try Self.photo(width: 64, height: 40)
    let (generation, output) = try Self.onePass(
      frame, width: 64, height: 40, state: ControlState(), encoding: .bt2100HLG)
    #expect(generation != nil)
    #expect(output == FoldedBytes().mapped(frame))
  }

  /// Zoom and auto white balance need the libvips graph: nothing is written.
  @Test(arguments: [ControlState(zoom: 1.5, saturation: 1.3), ControlState(whiteBalance: .auto)])
  func statesThatNeedTheGraphAreLeftToIt(state: ControlState) throws {
    let frame = try Self.photo(width: 64, height: 40)
    let (generation, output) = try Self.onePass(
      frame, width: 64, height: 40, state: state, encoding: .bt2100HLG)
    #expect(generation == nil)
    #expect(output.allSatisfy { $0 == 0xAB })
  }

  @Test func eightBitFramesAndShortOutputsAreRefused() throws {
    let live = LiveControlState(ControlState(exposureBias: 0.5))
    let eight = try FrameRenderer(width: 4, height: 2, pixelFormat: .rgb24, controls: live)
    var output = [UInt8](repeating: 0, count: 24)
    let input = [UInt8](repeating: 9, count: 48)
    #expect(
      throws: RenderError("the one-pass render with a second stage takes packed rgb48 frames")
    ) {
      try input.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes {
          _ = try eight.renderOnePass(input, then: FoldedBytes(), into: $0)
        }
      }
    }
    let sixteen = try FrameRenderer(width: 4, height: 2, pixelFormat: .rgb48, controls: live)
    #expect(throws: RenderError("a 4×2 frame's 8-bit output needs 24 bytes, not 23")) {
      try input.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes {
          _ = try sixteen.renderOnePass(
            input, then: FoldedBytes(), into: .init(rebasing: $0[0..<23]))
        }
      }
    }
  }
}
