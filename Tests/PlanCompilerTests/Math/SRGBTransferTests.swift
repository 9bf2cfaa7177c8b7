import Foundation
import Testing

@testable import PlanCompiler

@Suite struct SRGBTransferTests {
  @Test func decodeMatchesTheStandardOnBothSegments() {
    #expect(SRGBTransfer.decode(0) == 0)
    #expect(abs(SRGBTransfer.decode(0.04) - 0.04 / 12.92) < 1e-15)
    #expect(abs(SRGBTransfer.decode(0.5) - pow(0.555 / 1.055, 2.4)) < 1e-15)
    #expect(abs(SRGBTransfer.decode(1) - 1) < 1e-12)
  }

  @Test func encodeInvertsDecodeAndExtendsAboveOne() {
    for code in 0...255 {
      let v = Double(code) / 255
      #expect(abs(SRGBTransfer.encode(SRGBTransfer.decode(v)) - v) < 1e-6)
    }
    #expect(abs(SRGBTransfer.encode(4) - (1.055 * pow(4, 1 / 2.4) - 0.055)) < 1e-12)
    #expect(SRGBTransfer.encode(4) > 1)
  }

  @Test func lumaWeightsSumToOne() {
    #expect(abs(Rec709Luma.weights.sum() - 1) < 1e-12)
    #expect(abs(Rec709Luma.luma(SIMD3(1, 0, 0)) - 0.2126) < 1e-15)
  }
}
