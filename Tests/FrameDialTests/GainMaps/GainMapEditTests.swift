import Controls
import ImageMathContract
import Testing

@testable import FrameDial

/// The edited gain map, code by code, against the image-math contract written out in double
/// precision: both renditions edited (the HDR one continued above SDR white and clipped at the
/// headroom), the new map their luminances' ratio through the BT.709 transfer.
struct GainMapEditTests {
  static let state = ControlState(
    exposureBias: 0.3, contrast: 1.2, saturation: 1.3, whiteBalance: .preset(.tungsten))
  static let headroom = 3.12

  /// The contract's map code for a pixel of base codes `base` and map code `map`.
  static func expectedCode(
    base: SIMD3<Int>, map: Int, gains: SIMD3<Double>, luma: SIMD3<Double>
  ) -> Int {
    let sdr = SIMD3(
      ContractFormulas.decode(Double(base.x) / 255), ContractFormulas.decode(Double(base.y) / 255),
      ContractFormulas.decode(Double(base.z) / 255))
    let hdr = ContractFormulas.hdrRendition(sdr: sdr, mapCode: map, headroom: headroom)
    func edited(_ light: SIMD3<Double>, top: Double) -> SIMD3<Double> {
      ContractFormulas.edited(
        light, ev: state.exposureBias, gains: gains, saturation: state.saturation,
        contrast: state.contrast, luma: luma, top: top)
    }
    let sdrLight = (edited(sdr, top: 1) * luma).sum()
    let hdrLight = (edited(hdr, top: headroom) * luma).sum()
    guard sdrLight > 1e-5 else { return map }
    let gain = min(max((hdrLight / sdrLight - 1) / (headroom - 1), 0), 1)
    return Int((ContractFormulas.bt709OETF(gain) * 255).rounded())
  }

  /// Base codes in steps of 17 on every channel (greys, colours, black and white) against map codes
  /// from none to full, in sRGB and in Display P3 primaries.
  @Test(arguments: [ColourEncoding.sRGB, .displayP3])
  func everyCodeIsWithinOneOfTheContract(encoding: ColourEncoding) throws {
    let plan = Plan(compiling: Self.state, encoding: encoding)
    let luma =
      encoding == .sRGB
      ? SIMD3(0.2126, 0.7152, 0.0722) : ContractFormulas.displayP3Luma
    let gains =
      encoding == .sRGB
      ? ContractFormulas.whiteBalanceGains(kelvin: 2850, tint: 0)
      : ContractFormulas.whiteBalanceGains(
        kelvin: 2850, tint: 0, xyzToRGB: ContractFormulas.xyzToDisplayP3)
    let edit = try #require(
      GainMapEdit(
        pipeline: plan.pipeline, autoGains: SIMD3(1, 1, 1), headroom: Self.headroom,
        lumaWeights: encoding.primaries.lumaWeights))
    var (worst, checked, moved) = (0, 0, 0)
    let levels = Array(stride(from: 0, through: 255, by: 17))
    for red in levels {
      for green in levels {
        for blue in levels {
          for map in [0, 40, 128, 200, 255] {
            let code = Int(
              edit.code(
                red: UInt8(red), green: UInt8(green), blue: UInt8(blue), map: UInt8(map)))
            let expected = Self.expectedCode(
              base: SIMD3(red, green, blue), map: map, gains: gains, luma: luma)
            worst = max(worst, abs(code - expected))
            checked += 1
            if expected != map { moved += 1 }
          }
        }
      }
    }
    #expect(worst <= 1, "a code is \(worst) from the contract's")
    // The edit moves most maps: +0.3 EV alone lifts every highlight the SDR picture clips.
    #expect(moved > checked / 2, "\(moved) of \(checked) codes moved")
  }

  /// With no colour stage the map is the input's: the HDR rendition is the SDR picture times the
  /// same factor, which stays under the headroom.
  @Test func noColourStageKeepsEveryCode() throws {
    let edit = try #require(
      GainMapEdit(
        pipeline: nil, autoGains: SIMD3(1, 1, 1), headroom: Self.headroom,
        lumaWeights: ColourEncoding.displayP3.primaries.lumaWeights))
    var worst = 0
    for base in stride(from: 8, through: 255, by: 7) {
      for map in 0...255 {
        let code = edit.code(
          red: UInt8(base), green: UInt8(255 - base / 2), blue: UInt8(base / 3), map: UInt8(map))
        worst = max(worst, abs(Int(code) - map))
      }
    }
    #expect(worst <= 1, "a code moved by \(worst)")
  }

  /// Highlights the SDR picture clips keep their light in the map: a white pixel with no gain,
  /// +1 EV, is twice SDR white in the HDR rendition, a gain of (2 − 1) / (H − 1).
  @Test func aClippedHighlightMovesIntoTheMap() throws {
    let plan = Plan(compiling: ControlState(exposureBias: 1), encoding: .sRGB)
    let edit = try #require(
      GainMapEdit(
        pipeline: plan.pipeline, autoGains: SIMD3(1, 1, 1), headroom: Self.headroom,
        lumaWeights: ColourEncoding.sRGB.primaries.lumaWeights))
    let code = edit.code(red: 255, green: 255, blue: 255, map: 0)
    let expected = ContractFormulas.bt709OETF(1 / (Self.headroom - 1)) * 255
    #expect(abs(Double(code) - expected) <= 0.5 + 1e-9, "\(code) against \(expected)")
    // Already at the headroom: the light cannot go further.
    #expect(edit.code(red: 255, green: 255, blue: 255, map: 255) == 255)
    #expect(GainMapEdit(pipeline: nil, autoGains: .one, headroom: 1, lumaWeights: .one) == nil)
  }

  /// A whole map through the bands the threads share gives each pixel's own code.
  @Test func aWholeMapIsEachPixelsCode() throws {
    let plan = Plan(compiling: Self.state, encoding: .displayP3)
    let edit = try #require(
      GainMapEdit(
        pipeline: plan.pipeline, autoGains: SIMD3(1, 1, 1), headroom: Self.headroom,
        lumaWeights: ColourEncoding.displayP3.primaries.lumaWeights))
    let (width, height) = (301, 257)
    let base: [UInt8] = (0..<(width * height * 3)).map { (index: Int) -> UInt8 in
      UInt8(truncatingIfNeeded: (index &* 7919) >> 3)
    }
    let map: [UInt8] = (0..<(width * height)).map { (index: Int) -> UInt8 in
      UInt8(truncatingIfNeeded: (index &* 104_729) >> 5)
    }
    let edited = edit.editedMap(base: base, map: map, width: width, height: height)
    #expect(edited.count == width * height)
    let mismatches = (0..<(width * height)).filter { index in
      edited[index]
        != edit.code(
          red: base[3 * index], green: base[3 * index + 1], blue: base[3 * index + 2],
          map: map[index])
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) pixels differ")
    #expect(edited != map)
  }
}
