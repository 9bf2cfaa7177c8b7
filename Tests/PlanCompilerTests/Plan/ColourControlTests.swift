import Controls
import Foundation
import ImageMathContract
import Testing

@testable import PlanCompiler

/// Each control on grey and coloured inputs, against values computed here from the contract's formulas.
@Suite struct ColourControlTests {
  private func output(_ state: ControlState, _ pixel: SIMD3<UInt8>) -> SIMD3<Int> {
    let result = Plan(compiling: state).apply(pixel)
    return SIMD3(Int(result.x), Int(result.y), Int(result.z))
  }

  private func reference(_ state: ControlState, _ pixel: SIMD3<UInt8>) -> SIMD3<Int> {
    let value = Recipe(compiling: state).evaluate(
      SIMD3(Double(pixel.x), Double(pixel.y), Double(pixel.z)) / 255)
    return SIMD3(
      ContractFormulas.code8(value.x), ContractFormulas.code8(value.y),
      ContractFormulas.code8(value.z))
  }

  @Test func exposurePlusOneOnMidGrey() {
    let linear = pow((118.0 / 255 + 0.055) / 1.055, 2.4) * 2
    let expected = Int(floor((1.055 * pow(linear, 1 / 2.4) - 0.055) * 255 + 0.5))
    #expect(expected == 162)
    let state = ControlState(exposureBias: 1)
    #expect(reference(state, SIMD3(118, 118, 118)) == SIMD3(repeating: expected))
    #expect(output(state, SIMD3(118, 118, 118)) == SIMD3(repeating: expected))
  }

  @Test(arguments: WhiteBalancePreset.allCases)
  func presetOnGrey(_ preset: WhiteBalancePreset) {
    let gains = ContractFormulas.whiteBalanceGains(kelvin: preset.kelvin, tint: 0)
    let expected = ContractFormulas.greyThroughGains(code: 128, gains: gains)
    let state = ControlState(whiteBalance: .preset(preset))
    #expect(reference(state, SIMD3(128, 128, 128)) == expected)
    let got = output(state, SIMD3(128, 128, 128))
    #expect(largestDifference(got, expected) <= 1)
  }

  @Test(arguments: [1667.0, 2222, 2850, 3999, 4000, 5000, 6504, 7000, 7001, 10000, 25000])
  func kelvinOnGrey(_ kelvin: Double) {
    let gains = ContractFormulas.whiteBalanceGains(kelvin: kelvin, tint: 0)
    let computed = WhiteBalanceGains.gains(kelvin: kelvin, tint: 0)
    #expect(largestDifference(computed, gains) < 1e-9)
    let expected = ContractFormulas.greyThroughGains(code: 150, gains: gains)
    let got = output(ControlState(whiteBalance: .kelvin(kelvin)), SIMD3(150, 150, 150))
    #expect(largestDifference(got, expected) <= 1)
  }

  @Test func sRGBWhiteIsNeutralLowerIsBluerHigherIsWarmer() {
    let neutral = WhiteBalanceGains.gains(kelvin: 6504, tint: 0)
    #expect(abs(neutral.x - 1) < 0.01 && abs(neutral.z - 1) < 0.01)
    let grey = output(ControlState(whiteBalance: .kelvin(6504)), SIMD3(128, 128, 128))
    #expect(largestDifference(grey, SIMD3(repeating: 128)) <= 1)
    for kelvin in [2500.0, 3200, 4500, 5500] {
      let pixel = output(ControlState(whiteBalance: .kelvin(kelvin)), SIMD3(128, 128, 128))
      #expect(pixel.z > pixel.x, "\(kelvin) K should be bluer")
    }
    for kelvin in [7500.0, 10000, 25000] {
      let pixel = output(ControlState(whiteBalance: .kelvin(kelvin)), SIMD3(128, 128, 128))
      #expect(pixel.x > pixel.z, "\(kelvin) K should be warmer")
    }
  }

  @Test func gainsStayWithinACamerasRangeAndLowerTemperaturesAreNeverLessBlue() {
    // Each locus on its own (they meet with a step at 4000 K): the blue gain never rises with kelvin.
    for segment in [
      stride(from: 1667.0, to: 4000, by: 25), stride(from: 4000.0, to: 25001, by: 25),
    ] {
      var previousBlue = Double.infinity
      for kelvin in segment {
        let gains = WhiteBalanceGains.gains(kelvin: kelvin, tint: 0)
        for gain in [gains.x, gains.y, gains.z] {
          #expect(gain >= 0.25 && gain <= 4, "\(kelvin) K: \(gains)")
        }
        #expect(gains.z <= previousBlue, "\(kelvin) K is bluer than a lower temperature")
        previousBlue = gains.z
      }
    }
    // Below about 1905 K the light has no blue in linear sRGB: the blue gain is the largest there is.
    #expect(WhiteBalanceGains.lightColor(kelvin: 1800).z <= 0)
    #expect(WhiteBalanceGains.gains(kelvin: 1800, tint: 0).z == 4)
    // The picture stays a picture: mid grey at the lowest temperature is blue, not green-black.
    let pixel = output(ControlState(whiteBalance: .kelvin(1667)), SIMD3(128, 128, 128))
    let gains = SIMD3(0.25, 1, 4)
    #expect(pixel == ContractFormulas.greyThroughGains(code: 128, gains: gains), "\(pixel)")
    #expect(pixel.z > pixel.y && pixel.y > pixel.x, "\(pixel)")
    // Tint's own extremes stay inside the range too.
    let tinted = WhiteBalanceGains.gains(kelvin: 6504, tint: -150)
    #expect(abs(tinted.y - pow(2, 0.75)) < 1e-12)
  }

  @Test func positiveTintIsMagentaNegativeIsGreen() {
    let magenta = output(ControlState(whiteBalance: .kelvin(6504), tint: 100), SIMD3(128, 128, 128))
    let green = output(ControlState(whiteBalance: .kelvin(6504), tint: -100), SIMD3(128, 128, 128))
    #expect(magenta.y < magenta.x && magenta.y < magenta.z)
    #expect(green.y > green.x && green.y > green.z)
    let gains = ContractFormulas.whiteBalanceGains(kelvin: 6504, tint: 100)
    #expect(abs(gains.y - pow(2, -0.5)) < 1e-12)
    #expect(
      largestDifference(magenta, ContractFormulas.greyThroughGains(code: 128, gains: gains)) <= 1)
  }

  @Test func tintIsIgnoredWithoutPresetOrKelvin() {
    #expect(Recipe(compiling: ControlState(tint: 80)).isIdentity)
    #expect(
      Recipe(compiling: ControlState(whiteBalance: .auto, tint: 80))
        == Recipe(compiling: ControlState(whiteBalance: .auto)))
  }

  @Test func saturationZeroGivesGrey() {
    let pixel = SIMD3<UInt8>(200, 90, 30)
    let linear = SIMD3(
      ContractFormulas.decode(200 / 255), ContractFormulas.decode(90 / 255),
      ContractFormulas.decode(30 / 255))
    let expected = ContractFormulas.code8(ContractFormulas.encode(ContractFormulas.luma(linear)))
    let got = output(ControlState(saturation: 0), pixel)
    #expect(largestDifference(got, SIMD3(repeating: expected)) <= 1)
    #expect(reference(ControlState(saturation: 0), pixel) == SIMD3(repeating: expected))
  }

  @Test(arguments: [0.0, 0.5, 1.5, 2])
  func contrastAroundMidGrey(_ k: Double) {
    let state = ControlState(contrast: k)
    for code in [0, 40, 127, 128, 200, 255] {
      let v = (Double(code) / 255 - 0.5) * k + 0.5
      let expected = ContractFormulas.code8(v)
      let got = output(state, SIMD3(repeating: UInt8(code)))
      #expect(largestDifference(got, SIMD3(repeating: expected)) <= 1, "code \(code)")
    }
    #expect(output(state, SIMD3(repeating: 0)).x <= output(state, SIMD3(repeating: 255)).x)
  }

  @Test func contrastHalfOnExactValues() {
    let state = ControlState(contrast: 0.5)
    #expect(output(state, SIMD3(0, 255, 128)) == SIMD3(64, 191, 128))
  }
}
