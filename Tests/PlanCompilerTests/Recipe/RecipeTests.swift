import Controls
import Testing

@testable import PlanCompiler

@Suite struct RecipeTests {
  @Test func identityStateCompilesToNoStages() {
    let recipe = Recipe(compiling: .identity)
    #expect(recipe.stages.isEmpty)
    #expect(recipe.description == "identity")
    #expect(recipe.evaluate(SIMD3(0.2, 0.4, 0.6)) == SIMD3(0.2, 0.4, 0.6))
  }

  @Test func stagesFollowTheContractOrder() {
    let state = ControlState(
      exposureBias: 1, zoom: 2, contrast: 1.5, saturation: 1.2, whiteBalance: .preset(.tungsten),
      tint: 10,
      filter: .chrome)
    let kinds = Recipe(compiling: state).stages.map { stage -> String in
      switch stage {
      case .zoom: "zoom"
      case .decode: "decode"
      case .exposure: "exposure"
      case .gains: "gains"
      case .autoWhiteBalance: "auto"
      case .matrix(_, let name): name
      case .encode: "encode"
      case .curve: "curve"
      case .contrast: "contrast"
      }
    }
    #expect(
      kinds == [
        "zoom", "decode", "exposure", "gains", "saturation 1.2", "filter chrome", "encode", "curve",
        "contrast",
      ])
  }

  @Test func onlyEncodedStagesNeedNoDecoding() {
    #expect(Recipe(compiling: ControlState(contrast: 1.3)).stages == [.contrast(1.3, pivot: 0.5)])
    #expect(Recipe(compiling: ControlState(zoom: 3)).stages == [.zoom(factor: 3, center: .center)])
  }

  @Test func outOfRangeValuesAreClamped() {
    let recipe = Recipe(compiling: ControlState(exposureBias: 20, contrast: .nan, saturation: -1))
    #expect(recipe.stages.contains(.exposure(ev: 8)))
    #expect(
      recipe.stages.contains(.matrix(SaturationMatrix.matrix(saturation: 0), name: "saturation 0")))
    #expect(!recipe.stages.contains { if case .contrast = $0 { true } else { false } })
  }

  @Test func descriptionHasOneLinePerStage() {
    let recipe = Recipe(
      compiling: ControlState(exposureBias: -1, contrast: 0.8, whiteBalance: .kelvin(3200)))
    let lines = recipe.description.split(separator: "\n")
    #expect(lines.count == recipe.stages.count)
    #expect(lines[1] == "2. exposure -1 EV (× 0.5)")
    #expect(lines[2].hasPrefix("3. gains 3200 K: r "))
  }

  @Test func dotListsEveryStageInAChain() {
    let recipe = Recipe(compiling: ControlState(zoom: 2, saturation: 0.5))
    let dot = recipe.toDOT()
    #expect(dot.hasPrefix("digraph recipe {"))
    #expect(dot.contains("input -> s0 -> s1 -> s2 -> s3 -> output;"))
    #expect(dot.contains("matrix saturation 0.5"))
  }

  @Test func evaluateClipsNegativeLightBeforeEncodingAndTheResultAtTheEnd() {
    let recipe = Recipe(stages: [
      .decode(.sRGB), .matrix(Matrix3(diagonal: SIMD3(-1, 8, 1)), name: "test"), .encode(.sRGB),
    ])
    let out = recipe.evaluate(SIMD3(0.5, 0.5, 0.5))
    #expect(out.x == 0 && out.y == 1 && abs(out.z - 0.5) < 1e-12)
  }
}
