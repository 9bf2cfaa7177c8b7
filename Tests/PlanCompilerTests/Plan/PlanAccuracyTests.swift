import Controls
import ImageMathContract
import SeededRandom
import Testing

@testable import PlanCompiler

/// The ±1 code-value contract: the optimized plan against the recipe's double-precision evaluation, in
/// every colour encoding.
@Suite struct PlanAccuracyTests {
  static let extremes: [ControlState] = [
    ControlState(exposureBias: 8), ControlState(exposureBias: -8), ControlState(contrast: 0),
    ControlState(contrast: 2), ControlState(saturation: 0), ControlState(saturation: 2),
    ControlState(whiteBalance: .kelvin(1667)), ControlState(whiteBalance: .kelvin(25000)),
    ControlState(whiteBalance: .kelvin(5000), tint: 150),
    ControlState(whiteBalance: .preset(.tungsten), tint: -150),
    ControlState(
      exposureBias: 8, contrast: 0.02, saturation: 2, whiteBalance: .kelvin(1667), tint: 150,
      filter: .vivid),
    ControlState(
      exposureBias: 8, contrast: 0.035, saturation: 2, whiteBalance: .kelvin(1667), tint: -150),
    ControlState(exposureBias: -3, contrast: 2, filter: .noir),
    ControlState(exposureBias: 2, contrast: 0.5, saturation: 0, filter: .fade),
    ControlState(contrast: 1.7, saturation: 1.6, whiteBalance: .kelvin(25000), filter: .chrome),
    ControlState(exposureBias: 1, contrast: 2, filter: .sepia),
    ControlState(exposureBias: 0.5, contrast: 1.2, saturation: 1.3, whiteBalance: .kelvin(5000)),
    ControlState(exposureBias: -8, contrast: 2, saturation: 2, filter: .chrome),
    ControlState(contrast: 2, filter: .transfer), ControlState(contrast: 0.3, filter: .tonal),
  ]

  static let states: [ControlState] = Filter.allCases.map { ControlState(filter: $0) } + extremes

  static let encodings: [ColourEncoding] = [.sRGB, .displayP3, .bt2100HLG, .bt2100PQ]

  private static func expectedCodes(_ recipe: Recipe, _ pixel: SIMD3<Int>, maxCode: Int) -> SIMD3<
    Int
  > {
    let value = recipe.evaluate(
      SIMD3(Double(pixel.x), Double(pixel.y), Double(pixel.z)) / Double(maxCode))
    return SIMD3(
      OutputQuantization.code(value.x, maxCode: maxCode),
      OutputQuantization.code(value.y, maxCode: maxCode),
      OutputQuantization.code(value.z, maxCode: maxCode))
  }

  private static func error8(_ plan: Plan, _ pixel: SIMD3<Int>) -> Int {
    let got = plan.apply(SIMD3(UInt8(pixel.x), UInt8(pixel.y), UInt8(pixel.z)))
    let want = expectedCodes(plan.recipe, pixel, maxCode: 255)
    return largestDifference(SIMD3(Int(got.x), Int(got.y), Int(got.z)), want)
  }

  @Test(arguments: states, encodings)
  func everyLevelOfEachChannelWithinOneCode(_ state: ControlState, _ encoding: ColourEncoding) {
    let plan = Plan(compiling: state, encoding: encoding)
    var worst = 0
    for channel in 0..<3 {
      for fixed in [0, 77, 128, 200, 255] {
        for level in 0...255 {
          var pixel = SIMD3(repeating: fixed)
          pixel[channel] = level
          worst = max(worst, Self.error8(plan, pixel))
        }
      }
    }
    #expect(worst <= 1, "\(state) \(encoding)")
  }

  @Test(arguments: states, encodings)
  func randomColoursWithinOneCode(_ state: ControlState, _ encoding: ColourEncoding) {
    let plan = Plan(compiling: state, encoding: encoding)
    var generator = SeededGenerator(seed: 0xF4A3_D1A1)
    var worst = 0
    for _ in 0..<10_000 {
      let pixel = SIMD3(
        Int.random(in: 0...255, using: &generator), Int.random(in: 0...255, using: &generator),
        Int.random(in: 0...255, using: &generator))
      worst = max(worst, Self.error8(plan, pixel))
    }
    #expect(worst <= 1, "\(state) \(encoding)")
  }

  @Test(arguments: states, encodings)
  func sixteenBitSampleWithinOneCode(_ state: ControlState, _ encoding: ColourEncoding) {
    let plan = Plan(compiling: state, encoding: encoding)
    var generator = SeededGenerator(seed: 0x1657_7A5E)
    var pixels: [SIMD3<Int>] = (0..<1500).map { _ in
      SIMD3(
        Int.random(in: 0...65535, using: &generator), Int.random(in: 0...65535, using: &generator),
        Int.random(in: 0...65535, using: &generator))
    }
    for level in stride(from: 0, through: 65535, by: 113) + [1, 2, 3, 65534, 65535] {
      pixels.append(SIMD3(level, 30000, 9000))
      pixels.append(SIMD3(level, level, level))
    }
    var worst = 0
    for pixel in pixels {
      let got = plan.colorProgram.apply(SIMD3(UInt16(pixel.x), UInt16(pixel.y), UInt16(pixel.z)))
      let want = Self.expectedCodes(plan.recipe, pixel, maxCode: 65535)
      worst = max(worst, largestDifference(SIMD3(Int(got.x), Int(got.y), Int(got.z)), want))
    }
    #expect(worst <= 1, "\(state) \(encoding)")
  }

  @Test(arguments: encodings)
  func identityIsBitForBit(_ encoding: ColourEncoding) {
    let plan = Plan(compiling: .identity, encoding: encoding)
    for level in 0...255 {
      let pixel = SIMD3<UInt8>(UInt8(level), UInt8(255 - level), UInt8(level / 2))
      #expect(plan.apply(pixel) == pixel)
    }
    for level in stride(from: 0, through: 65535, by: 7) {
      let pixel = SIMD3<UInt16>(UInt16(level), UInt16(65535 - level), UInt16(level / 3))
      #expect(plan.colorProgram.apply(pixel) == pixel)
    }
  }
}
