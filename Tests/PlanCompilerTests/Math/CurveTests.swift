import Testing

@testable import PlanCompiler

@Suite struct CurveTests {
  @Test func rejectsNonIncreasingPoints() {
    #expect(Curve(points: [SIMD2(0, 0)]) == nil)
    #expect(Curve(points: [SIMD2(0, 0), SIMD2(0.5, 0.5), SIMD2(0.4, 0.9)]) == nil)
    #expect(Curve(points: [SIMD2(0, 0.5), SIMD2(1, 0.5)]) == nil)
    #expect(Curve(points: [SIMD2(0, 0), SIMD2(1, .nan)]) == nil)
  }

  @Test func interpolatesExtrapolatesAndInverts() throws {
    let curve = try #require(Curve(points: [SIMD2(0, 0.1), SIMD2(0.5, 0.4), SIMD2(1, 1)]))
    #expect(abs(curve.evaluate(0.25) - 0.25) < 1e-12)
    #expect(abs(curve.evaluate(-0.5) - (0.1 - 0.3)) < 1e-12)
    #expect(abs(curve.evaluate(2) - 2.2) < 1e-12)
    #expect(abs(curve.maximumSlope - 1.2) < 1e-12)
    for x in stride(from: -1.0, through: 3, by: 0.05) {
      #expect(abs(curve.inverse(curve.evaluate(x)) - x) < 1e-12)
    }
  }
}
