import Controls
import Foundation
import ImageMathContract
import Testing
import Vips

@testable import FrameDial

/// The frame renderer on 16-bit frames (rgb48le, rgba64le): the still path's 16-bit pixels, levels
/// finer than 8 bits kept.
@Suite struct SixteenBitFrameTests {
  /// Renders `pixels` (16-bit samples in native order, as bytes) with `state`.
  func render(
    _ pixels: [UInt8], width: Int, height: Int, format: PixelFormat, state: ControlState,
    encoding: ColourEncoding = .sRGB, optimized: Bool = true
  ) throws -> [UInt8] {
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: format, controls: LiveControlState(state),
      encoding: encoding)
    renderer.optimized = optimized
    var output = [UInt8](repeating: 0, count: pixels.count)
    try pixels.withUnsafeBytes { input in
      try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
    }
    return output
  }

  /// The 16-bit samples of `bytes` (native byte order).
  func samples(_ bytes: [UInt8]) -> [UInt16] {
    bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
  }

  static let states = [
    ControlState(exposureBias: 0.5, contrast: 1.2, whiteBalance: .preset(.tungsten)),
    ControlState(exposureBias: 0.1), ControlState(filter: .vivid),
    ControlState(zoom: 1.5, saturation: 1.3),
  ]

  @Test(arguments: states)
  func sixteenBitFramesGiveTheStillPathsSixteenBitPixels(state: ControlState) throws {
    let photo = try Image(contentsOf: RenderFixtures.sample("coffee.png"))
    let still = try photo.colourspace("rgb16")
    #expect(still.format == .ushort && still.bands == 3)
    let pixels = try still.pixelBytes()
    let viaFrame = try render(
      pixels, width: still.width, height: still.height, format: .rgb48, state: state)
    let viaStill = try StillRenderer().render(
      still, state: state, options: StillOptions(zoomKernel: .bilinear))
    #expect(viaStill.format == .ushort)
    let (frameSamples, stillSamples) = (samples(viaFrame), samples(try viaStill.pixelBytes()))
    // Counted, not compared with ==: a failed == on arrays this long makes the test library diff them
    // for minutes.
    #expect(frameSamples.count == stillSamples.count)
    #expect(zip(frameSamples, stillSamples).filter { $0 != $1 }.count == 0)
    #expect(frameSamples != samples(pixels))
  }

  @Test func aRampOfAThousandLevelsKeepsThemWhereEightBitsKeep256() throws {
    // 1024 grey levels 64 apart (10-bit codes scaled to 16 bits), one per column.
    let width = 1024
    var ramp: [UInt16] = []
    for level in 0..<width { ramp += [UInt16(level * 64), UInt16(level * 64), UInt16(level * 64)] }
    let bytes = ramp.withUnsafeBytes { Array($0) }
    let output = samples(
      try render(
        bytes, width: width, height: 1, format: .rgb48, state: ControlState(exposureBias: 0.1)))
    let greens = stride(from: 1, to: output.count, by: 3).map { output[$0] }
    #expect(Set(greens).count >= 900, "\(Set(greens).count) distinct levels")
    // Brighter, and still ordered.
    #expect(greens[512] > ramp[512 * 3])
    #expect(zip(greens, greens.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test func alphaOfRGBA64IsCopiedAndColourMatchesRGB48() throws {
    let (width, height) = (7, 5)
    var rgb: [UInt16] = []
    var rgba: [UInt16] = []
    for index in 0..<(width * height) {
      let pixel = [UInt16(index * 1500), UInt16(60000 - index * 900), UInt16(index * 37 + 9000)]
      rgb += pixel
      rgba += pixel + [UInt16(index * 1000 + 3)]
    }
    let state = ControlState(exposureBias: 0.7, saturation: 1.4)
    let fromRGB = samples(
      try render(
        rgb.withUnsafeBytes { Array($0) }, width: width, height: height, format: .rgb48,
        state: state))
    let fromRGBA = samples(
      try render(
        rgba.withUnsafeBytes { Array($0) }, width: width, height: height, format: .rgba64,
        state: state))
    for index in 0..<(width * height) {
      #expect(
        Array(fromRGBA[(index * 4)..<(index * 4 + 3)])
          == Array(fromRGB[(index * 3)..<(index * 3 + 3)]))
      #expect(fromRGBA[index * 4 + 3] == rgba[index * 4 + 3])
    }
    #expect(fromRGB != rgb)
  }

  @Test(arguments: [ColourEncoding.sRGB, .bt2100HLG, .bt2100PQ, .displayP3])
  func identityCopiesSixteenBitFrames(encoding: ColourEncoding) throws {
    let values: [UInt16] = (0..<(9 * 4 * 3)).map { UInt16($0 * 601 % 65536) }
    let bytes = values.withUnsafeBytes { Array($0) }
    let output = try render(
      bytes, width: 9, height: 4, format: .rgb48, state: .identity, encoding: encoding)
    #expect(output == bytes)
  }

  /// 10-bit HLG and PQ patches (codes scaled to 16 bits, as the video decoder gives them) through the
  /// frame renderer with exposure and saturation: each patch against BT.2100's formulas evaluated here,
  /// with BT.2020 luma for saturation.
  @Test(arguments: [ColourEncoding.bt2100HLG, .bt2100PQ])
  func hdrPatchesFollowTheBT2100Formulas(encoding: ColourEncoding) throws {
    let patches: [SIMD3<Int>] = [
      SIMD3(768, 768, 768), SIMD3(512, 512, 512), SIMD3(940, 300, 128), SIMD3(64, 200, 700),
      SIMD3(1023, 1023, 1023), SIMD3(0, 0, 0), SIMD3(100, 100, 100),
    ]
    let hlg = encoding.transfer == .hlg
    func toLight(_ signal: Double) -> Double {
      hlg ? ContractFormulas.hlgInverseOETF(signal) : ContractFormulas.pqEOTF(signal) / 203
    }
    func toSignal(_ light: Double) -> Double {
      hlg
        ? ContractFormulas.hlgOETF(light)
        : ContractFormulas.pqInverseEOTF(nits: min(light * 203, 10000))
    }
    let luma = SIMD3<Double>(0.2627, 0.6780, 0.0593)
    let settings: [(ev: Double, saturation: Double)] = [(1, 1), (-1, 1), (0.5, 1.5)]
    for (ev, saturation) in settings {
      var samples: [UInt16] = []
      for patch in patches {
        samples += [UInt16(patch.x * 64), UInt16(patch.y * 64), UInt16(patch.z * 64)]
      }
      let output = self.samples(
        try render(
          samples.withUnsafeBytes { Array($0) }, width: patches.count, height: 1, format: .rgb48,
          state: ControlState(exposureBias: ev, saturation: saturation), encoding: encoding))
      for index in patches.indices {
        let input: SIMD3<Double> =
          SIMD3(
            Double(samples[3 * index]), Double(samples[3 * index + 1]),
            Double(samples[3 * index + 2])) / 65535
        var light: SIMD3<Double> =
          SIMD3(toLight(input.x), toLight(input.y), toLight(input.z)) * pow(2, ev)
        let y = (light * luma).sum()
        light = SIMD3(repeating: y) + (light - SIMD3(repeating: y)) * saturation
        for channel in 0..<3 {
          let expected: Double = min(max(toSignal(max(light[channel], 0)), 0), 1)
          let want = Int((expected * 65535 + 0.5).rounded(.down))
          #expect(
            abs(Int(output[3 * index + channel]) - want) <= 2,
            "\(encoding) \(ev) EV saturation \(saturation) patch \(patches[index]) channel \(channel)"
          )
        }
      }
    }
  }

  @Test func aSixteenBitBufferOfEightBitSizeIsAnError() throws {
    let renderer = try FrameRenderer(
      width: 4, height: 4, pixelFormat: .rgb48,
      controls: LiveControlState(ControlState(exposureBias: 1)))
    let small = [UInt8](repeating: 0, count: 48)
    var output = [UInt8](repeating: 0, count: 96)
    #expect(throws: VipsError.self) {
      try small.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
      }
    }
  }

  /// The unoptimized graph writes HLG and PQ out with libvips's generic operations: it agrees with the
  /// optimized plan on a ramp of every 10-bit level with a colour cast.
  @Test(arguments: [ColourEncoding.bt2100HLG, .bt2100PQ])
  func theUnoptimizedGraphAgreesOnHDRFrames(encoding: ColourEncoding) throws {
    var samples: [UInt16] = []
    for code in 0..<1024 {
      samples += [UInt16(code * 64), UInt16((1023 - code) * 64), UInt16(code / 2 * 64)]
    }
    let bytes = samples.withUnsafeBytes { Array($0) }
    let state = ControlState(
      exposureBias: 0.7, contrast: 1.3, saturation: 1.4, whiteBalance: .kelvin(4200))
    let fast = self.samples(
      try render(bytes, width: 1024, height: 1, format: .rgb48, state: state, encoding: encoding))
    let reference = self.samples(
      try render(
        bytes, width: 1024, height: 1, format: .rgb48, state: state, encoding: encoding,
        optimized: false))
    let worst = zip(fast, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
    #expect(worst <= 2, "\(encoding): \(worst) of 65535")
    #expect(fast != samples)
  }
}
