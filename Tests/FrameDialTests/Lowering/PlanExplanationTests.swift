import Controls
import Testing

@testable import FrameDial
@testable import PlanCompiler

/// A plan explained as the steps a render runs: `framedial explain`'s lines and its Graphviz picture.
@Suite struct PlanExplanationTests {
  @Test func explanationsNameTheEncodingWhenItIsNotSRGB() {
    let state = ControlState(contrast: 1.2, saturation: 1.3)
    let pq = Plan(compiling: state, encoding: .bt2100PQ)
    #expect(pq.steps.first?.hasPrefix("colour encoding pq/bt2020") == true)
    #expect(pq.steps.contains { $0.contains("PQ decode × gains") })
    #expect(pq.recipe.description.contains("decode PQ → display light (203 cd/m² = 1)"))
    #expect(pq.recipe.description.contains("contrast 1.2 around 0.410897"))
    let srgb = Plan(compiling: state)
    #expect(!srgb.steps.contains { $0.contains("colour encoding") })
    #expect(srgb.recipe.description.contains("decode sRGB → linear"))
  }

  @Test func planDotIsATallColumnOfShortLinesWithOneBoxPerFoldedStage() {
    let state = ControlState(
      exposureBias: 0.5, zoom: 1.5, contrast: 1.2, saturation: 1.3,
      whiteBalance: .preset(.tungsten))
    let plan = Plan(compiling: state)
    let dot = plan.toDOT()
    #expect(dot.contains("rankdir=TB;") && !dot.contains("rankdir=LR"))
    // Every label's lines are short: wrapped at spaces near 40 characters.
    let labels = dot.split(separator: "\n").compactMap { line -> String? in
      guard let start = line.range(of: "label=\"") else { return nil }
      return String(line[start.upperBound...].prefix { $0 != "\"" })
    }
    let pieces = labels.flatMap { $0.components(separatedBy: "\\n") }
    #expect(
      pieces.allSatisfy { $0.count <= GraphvizChain.wrapWidth },
      "\(pieces.max { $0.count < $1.count } ?? "")")
    // The fused pass is a frame around one box per stage it folds, in order, with the stage's numbers.
    #expect(dot.contains("subgraph cluster_1 {"))
    let stages = plan.recipe.colorStages.count
    #expect(stages == 6)
    let boxes = (0..<(stages + 2)).map { "s\($0)" }
    #expect(dot.contains("input -> " + boxes.joined(separator: " -> ") + " -> output;"))
    #expect(dot.contains("exposure +0.5 EV (× 1.41421)"))
    #expect(dot.contains("contrast 1.2 around 0.5"))
  }
}
