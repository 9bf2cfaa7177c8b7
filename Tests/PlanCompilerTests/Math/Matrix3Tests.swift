import ImageMathContract
import Testing

@testable import PlanCompiler

@Suite struct Matrix3Tests {
  let a = Matrix3(SIMD3(1, 2, 3), SIMD3(0, 1, 4), SIMD3(5, 6, 0))
  let b = Matrix3(SIMD3(-24, 18, 5), SIMD3(20, -15, -4), SIMD3(-5, 4, 1))

  @Test func multipliesVectorsAndMatrices() {
    #expect(a * SIMD3(1, 1, 1) == SIMD3(6, 5, 11))
    #expect((a * b).isIdentity())
    #expect(a * Matrix3.identity == a)
  }

  @Test func followedByAppliesSelfFirst() {
    let v = SIMD3<Double>(0.2, 0.5, 0.9)
    let composed = a.followed(by: b)
    #expect(largestDifference(composed * v, b * (a * v)) < 1e-9)
  }

  @Test func diagonalAndIdentityChecks() {
    #expect(Matrix3(diagonal: SIMD3(2, 3, 4)).isDiagonal)
    #expect(Matrix3(diagonal: SIMD3(2, 3, 4)).diagonal == SIMD3(2, 3, 4))
    #expect(!a.isDiagonal)
    #expect(Matrix3.identity.isIdentity())
    #expect(!Matrix3(diagonal: SIMD3(1, 1, 1.001)).isIdentity())
    #expect(Matrix3(diagonal: SIMD3(1, 1, 1.001)).isIdentity(tolerance: 0.01))
    #expect(a.rowMajor == [1, 2, 3, 0, 1, 4, 5, 6, 0])
  }

  @Test func saturationZeroGivesGreyAndOneIdentity() {
    let grey = SaturationMatrix.matrix(saturation: 0) * SIMD3(0.9, 0.2, 0.05)
    let y = 0.2126 * 0.9 + 0.7152 * 0.2 + 0.0722 * 0.05
    #expect(abs(grey.x - y) < 1e-12 && abs(grey.y - y) < 1e-12 && abs(grey.z - y) < 1e-12)
    #expect(SaturationMatrix.matrix(saturation: 1).isIdentity(tolerance: 1e-15))
  }
}
