import Controls
import ImageMathContract
import Testing

@testable import PlanCompiler

/// Each look's defining property, checked on the plan's 8-bit output.
@Suite struct FilterLookTests {
  private func look(_ filter: Filter, _ pixel: SIMD3<Int>) -> SIMD3<Int> {
    let result = Plan(compiling: ControlState(filter: filter)).apply(
      SIMD3(UInt8(pixel.x), UInt8(pixel.y), UInt8(pixel.z)))
    return SIMD3(Int(result.x), Int(result.y), Int(result.z))
  }

  private func isGrey(_ pixel: SIMD3<Int>) -> Bool { pixel.x == pixel.y && pixel.y == pixel.z }
  private func spread(_ pixel: SIMD3<Int>) -> Int { pixel.max() - pixel.min() }

  private let colours: [SIMD3<Int>] = [
    SIMD3(200, 90, 30), SIMD3(40, 160, 220), SIMD3(180, 120, 90), SIMD3(90, 200, 110),
  ]

  @Test func everyCurveIsStrictlyIncreasing() {
    for filter in Filter.allCases {
      if let curve = FilterLook(filter).curve {
        #expect(Curve(points: curve.points) != nil, "\(filter)")
      }
    }
  }

  @Test func noneIsIdentity() {
    #expect(Recipe(compiling: ControlState(filter: .none)).isIdentity)
  }

  @Test func monoGivesLuma() {
    for colour in colours {
      let linear = SIMD3(
        ContractFormulas.decode(Double(colour.x) / 255),
        ContractFormulas.decode(Double(colour.y) / 255),
        ContractFormulas.decode(Double(colour.z) / 255))
      let y = ContractFormulas.code8(ContractFormulas.encode(ContractFormulas.luma(linear)))
      let out = look(.mono, colour)
      #expect(isGrey(out))
      #expect(abs(out.x - y) <= 1)
    }
  }

  @Test func tonalIsGreyWithLowerContrastThanMono() {
    for colour in colours { #expect(isGrey(look(.tonal, colour))) }
    let black = SIMD3(repeating: 0)
    let white = SIMD3(repeating: 255)
    #expect(
      look(.tonal, white).x - look(.tonal, black).x < look(.mono, white).x - look(.mono, black).x)
    let dark = SIMD3(repeating: 80)
    let light = SIMD3(repeating: 180)
    #expect(
      look(.tonal, light).x - look(.tonal, dark).x < look(.mono, light).x - look(.mono, dark).x)
  }

  @Test func noirIsGreyWithHigherContrastThanMono() {
    for colour in colours { #expect(isGrey(look(.noir, colour))) }
    let dark = SIMD3(repeating: 80)
    let light = SIMD3(repeating: 180)
    #expect(look(.noir, light).x - look(.noir, dark).x > look(.mono, light).x - look(.mono, dark).x)
  }

  @Test func sepiaTurnsGreyBrown() {
    for level in [40, 128, 220] {
      let out = look(.sepia, SIMD3(repeating: level))
      #expect(out.x > out.y && out.y > out.z, "level \(level): \(out)")
    }
  }

  @Test func chromeIsMoreSaturatedAndContrasty() {
    for colour in colours { #expect(spread(look(.chrome, colour)) > spread(colour)) }
    #expect(look(.chrome, SIMD3(repeating: 180)).x - look(.chrome, SIMD3(repeating: 80)).x > 100)
  }

  @Test func fadeIsLessSaturatedWithLiftedBlacks() {
    for colour in colours { #expect(spread(look(.fade, colour)) < spread(colour)) }
    #expect(look(.fade, SIMD3(repeating: 0)).x > 0)
  }

  @Test func instantIsWarmerAndSlightlyFaded() {
    let grey = look(.instant, SIMD3(repeating: 128))
    #expect(grey.x > grey.z)
    #expect(look(.instant, SIMD3(repeating: 0)).x > 0)
    #expect(look(.instant, SIMD3(repeating: 0)).x < 20)
  }

  @Test func processIsCooler() {
    let grey = look(.process, SIMD3(repeating: 128))
    #expect(grey.z > grey.x)
  }

  @Test func transferIsWarmer() {
    let grey = look(.transfer, SIMD3(repeating: 128))
    #expect(grey.x > grey.z)
  }

  @Test func vividIsMoreSaturated() {
    for colour in colours { #expect(spread(look(.vivid, colour)) > spread(colour)) }
    #expect(isGrey(look(.vivid, SIMD3(repeating: 100))))
  }
}
