import Controls
import Testing
import Vips

@testable import FrameDial

/// Plans for Display P3 pictures lowered as stills are (``Plan/lowered(on:autoGains:zoomKernel:outputSize:)``):
/// the fused kernels give the program's own codes at 8 and 16 bits, and those differ from the sRGB plan's.
@Suite struct EncodedStillLoweringTests {
  static let states = [
    ControlState(whiteBalance: .kelvin(3200), tint: 20), ControlState(saturation: 1.6),
    ControlState(exposureBias: 0.7, contrast: 1.3, filter: .sepia),
  ]

  @Test(arguments: states)
  func displayP3PlansLowerToTheirOwnCodes(state: ControlState) throws {
    let plan = PlanCache().plan(for: state, encoding: .displayP3)
    let srgb = Plan(compiling: state)
    let pixels = RenderFixtures.sweepPixels(randomCount: 500)
    let count = pixels.count / 3
    let eight = try Image.fromPixels(pixels, width: count, height: 1, bands: 3)
    let lowered8 = try plan.lowered(on: eight, zoomKernel: .bicubic).pixelBytes()
    var expected8 = pixels
    plan.apply(to: &expected8, layout: .rgb8)
    #expect(lowered8 == expected8)
    var srgb8 = pixels
    srgb.apply(to: &srgb8, layout: .rgb8)
    #expect(lowered8 != srgb8)

    let samples = pixels.map { UInt16(min(Int($0) * 257 + 3, 65535)) }
    let sixteen = try Image.fromPixels16(samples, width: count, height: 1, bands: 3)
    let bytes = try plan.lowered(on: sixteen, zoomKernel: .bicubic).pixelBytes()
    let lowered16 = bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    var mismatches = 0
    for index in 0..<count {
      let pixel = SIMD3(samples[3 * index], samples[3 * index + 1], samples[3 * index + 2])
      let want = plan.colorProgram.apply(pixel)
      let got = SIMD3(lowered16[3 * index], lowered16[3 * index + 1], lowered16[3 * index + 2])
      if got != want { mismatches += 1 }
    }
    #expect(mismatches == 0)
  }
}
