import ColourTransfer
import Controls
import Foundation
import ImageMathContract
import Testing

@testable import PlanCompiler

/// The transfers and primaries of ``ColourEncoding`` against BT.2100, ST 2084 and published matrices, and
/// the compiled controls in HLG, PQ, Display P3 and BT.2020.
@Suite struct ColourEncodingTests {
  @Test func hlgMatchesBT2100sChecks() {
    #expect(abs(HLGTransfer.encode(1.0 / 12) - 0.5) < 1e-12)
    #expect(abs(HLGTransfer.encode(1) - 1) < 1e-7)
    #expect(abs(HLGTransfer.decode(0.75) - 0.265) < 5e-4)
    #expect(abs(HLGTransfer.c - 0.55991073) < 1e-8)
    for code in 0...1023 {
      let signal = Double(code) / 1023
      // The formulas here use BT.2100's rounded b and c; the code derives them from a.
      #expect(abs(HLGTransfer.decode(signal) - ContractFormulas.hlgInverseOETF(signal)) < 1e-8)
      #expect(abs(HLGTransfer.encode(HLGTransfer.decode(signal)) - signal) < 1e-12)
    }
  }

  @Test func pqMatchesST2084WithReferenceWhiteAtOne() {
    #expect(abs(PQTransfer.encode(1) - ContractFormulas.pqInverseEOTF(nits: 203)) < 1e-12)
    #expect(abs(PQTransfer.encode(1) - 0.5806) < 1e-3)
    #expect(abs(PQTransfer.decode(1) - 10000.0 / 203) < 1e-9)
    #expect(abs(PQTransfer.encode(10000.0 / 203) - 1) < 1e-12)
    for code in 1...1023 {
      let signal = Double(code) / 1023
      let nits = ContractFormulas.pqEOTF(signal)
      #expect(abs(PQTransfer.decode(signal) * 203 - nits) <= 1e-9 * max(nits, 1))
      #expect(abs(PQTransfer.encode(PQTransfer.decode(signal)) - signal) < 1e-9)
    }
  }

  @Test func derivedMatricesMatchThePublishedOnes() throws {
    let published: [(ColourEncoding.Primaries, [[Double]])] = [
      (.displayP3, ContractFormulas.xyzToDisplayP3), (.bt2020, ContractFormulas.xyzToBT2020),
      (
        .bt709,
        [
          [3.2409699, -1.5373832, -0.4986108], [-0.9692436, 1.8759675, 0.0415551],
          [0.0556301, -0.2039770, 1.0569715],
        ]
      ),
    ]
    for (primaries, matrix) in published {
      let derived = try #require(primaries.derivedRGBToXYZ.inverse)
      for (row, expected) in zip(derived.rows, matrix) {
        #expect(largestDifference(row, SIMD3(expected[0], expected[1], expected[2])) < 1e-6)
      }
      #expect(primaries.xyzToLinear * SIMD3(0.3127 / 0.3290, 1, 0.3583 / 0.3290) != .zero)
    }
    let bt2020 = ColourEncoding.Primaries.bt2020.lumaWeights
    #expect(largestDifference(bt2020, SIMD3(0.2627, 0.6780, 0.0593)) < 5e-5)
    let p3 = ColourEncoding.Primaries.displayP3.lumaWeights
    #expect(largestDifference(p3, SIMD3(0.2290, 0.6917, 0.0793)) < 5e-5)
    #expect(abs(p3.sum() - 1) < 1e-12 && abs(bt2020.sum() - 1) < 1e-12)
  }

  @Test(arguments: [
    (ColourEncoding.displayP3, ContractFormulas.xyzToDisplayP3),
    (ColourEncoding.bt2100HLG, ContractFormulas.xyzToBT2020),
  ])
  func whiteBalanceGainsUseTheEncodingsPrimaries(
    _ encoding: ColourEncoding, _ matrix: [[Double]]
  ) throws {
    for (kelvin, tint) in [(2850.0, 0.0), (5000, 30), (9000, -40), (1700, 0)] {
      let plan = Plan(
        compiling: ControlState(whiteBalance: .kelvin(kelvin), tint: tint), encoding: encoding)
      let gains = try #require(plan.pipeline).gains
      let expected = ContractFormulas.whiteBalanceGains(
        kelvin: kelvin, tint: tint, xyzToRGB: matrix)
      #expect(largestDifference(gains, expected) < 1e-5, "\(kelvin) K in \(encoding)")
      if kelvin > 2000 {
        let srgb = ContractFormulas.whiteBalanceGains(kelvin: kelvin, tint: tint)
        #expect(largestDifference(gains, srgb) > 1e-3, "the primaries change the gains")
      }
    }
  }

  @Test func saturationAndMonoUseTheEncodingsLuma() throws {
    let luma = ColourEncoding.Primaries.bt2020.lumaWeights
    let mono = Plan(compiling: ControlState(filter: .mono), encoding: .bt2100PQ)
    let matrix = try #require(mono.pipeline?.matrix)
    for row in matrix.rows { #expect(largestDifference(row, luma) < 1e-15) }
    let grey = Plan(compiling: ControlState(saturation: 0), encoding: .bt2100HLG)
    let greyRow = try #require(grey.pipeline?.matrix).row0
    #expect(largestDifference(greyRow, luma) < 1e-15)
  }

  /// The HLG contract's example: the 75 % signal at +1 EV is OETF(2 × inverse OETF(0.75)), and every
  /// 10-bit level follows the same formula (clipped at the top).
  @Test func hlgExposureDoublesSceneLight() {
    for ev in [1.0, -1, 0.5] {
      let plan = Plan(compiling: ControlState(exposureBias: ev), encoding: .bt2100HLG)
      for code in stride(from: 0, through: 1023, by: 3) {
        let signal = Double(code) / 1023
        let sample = UInt16(code * 64)
        let input = Double(sample) / 65535
        let expected = ContractFormulas.hlgOETF(
          ContractFormulas.hlgInverseOETF(input) * pow(2, ev))
        let got = plan.colorProgram.apply(SIMD3(sample, sample, sample))
        let want = Int((min(expected, 1) * 65535 + 0.5).rounded(.down))
        #expect(abs(Int(got.x) - want) <= 1, "\(ev) EV at \(signal)")
        #expect(got.x == got.y && got.y == got.z)
      }
    }
    let plus = Plan(compiling: ControlState(exposureBias: 1), encoding: .bt2100HLG)
    let white = UInt16(0.75 * 65535)
    let result = Double(plus.colorProgram.apply(SIMD3(white, white, white)).x) / 65535
    #expect(abs(result - ContractFormulas.hlgOETF(2 * 0.265)) < 2e-4)
    #expect(abs(result - 0.8826) < 1e-3)
  }

  /// PQ exposure doubles display light (203 cd/m² = 1); the top, 10 000 cd/m², clips.
  @Test func pqExposureDoublesDisplayLight() {
    let plan = Plan(compiling: ControlState(exposureBias: 1), encoding: .bt2100PQ)
    for code in stride(from: 0, through: 1023, by: 5) {
      let sample = UInt16(code * 64)
      let nits = ContractFormulas.pqEOTF(Double(sample) / 65535)
      let expected = min(ContractFormulas.pqInverseEOTF(nits: min(2 * nits, 10000)), 1)
      let got = plan.colorProgram.apply(SIMD3(sample, sample, sample))
      #expect(abs(Int(got.x) - Int((expected * 65535 + 0.5).rounded(.down))) <= 1, "code \(code)")
    }
    let white = UInt16((ContractFormulas.pqInverseEOTF(nits: 203) * 65535).rounded())
    let doubled = Double(plan.colorProgram.apply(SIMD3(white, white, white)).x) / 65535
    #expect(abs(ContractFormulas.pqEOTF(doubled) - 406) < 1)
    let top = plan.colorProgram.apply(SIMD3<UInt16>(65535, 65535, 65535))
    #expect(top == SIMD3<UInt16>(65535, 65535, 65535))
  }

  @Test(arguments: [ColourEncoding.bt2100HLG, .bt2100PQ, .sRGB])
  func contrastPivotsOnEighteenPercentOfReferenceWhite(_ encoding: ColourEncoding) {
    let pivot = encoding.transfer.contrastPivot
    switch encoding.transfer {
    case .sRGB:
      #expect(pivot == 0.5)
    case .hlg:
      #expect(
        abs(pivot - ContractFormulas.hlgOETF(0.18 * ContractFormulas.hlgInverseOETF(0.75))) < 1e-9)
      #expect(abs(pivot - 0.3782) < 1e-3)
    case .pq:
      #expect(abs(pivot - ContractFormulas.pqInverseEOTF(nits: 0.18 * 203)) < 1e-12)
    }
    let sample = UInt16((pivot * 65535).rounded())
    for k in [0.0, 0.5, 1.7, 2] {
      let plan = Plan(compiling: ControlState(contrast: k), encoding: encoding)
      let got = plan.colorProgram.apply(SIMD3(sample, sample, sample))
      #expect(abs(Int(got.x) - Int(sample)) <= 1, "contrast \(k)")
      let brighter = plan.colorProgram.apply(SIMD3(sample + 4000, sample + 4000, sample + 4000))
      if k > 1 { #expect(brighter.x > sample + 4000) }
      if k < 1 { #expect(brighter.x < sample + 4000) }
    }
  }

  @Test func plansAreCachedPerEncoding() {
    let cache = PlanCache()
    let state = ControlState(exposureBias: 1)
    let hlg = cache.plan(for: state, encoding: .bt2100HLG)
    #expect(cache.plan(for: state, encoding: .bt2100HLG) === hlg)
    #expect(cache.plan(for: state) !== hlg)
    #expect(cache.plan(for: state).encoding == .sRGB && hlg.encoding == .bt2100HLG)
    #expect(hlg.recipe.stages.first == .decode(.hlg))
  }
}
