import Foundation

extension Plan {
  /// The optimized plan as the steps a render runs, one line each (what `framedial explain` prints).
  public var steps: [String] {
    explainedSteps.map { step in
      step.foldsStages ? step.text + " folding: " + foldedStages : step.text
    }
  }

  /// The optimized plan as a Graphviz `digraph`, top to bottom: one box per step, and a lookup-table
  /// pass drawn as a frame around one box per stage it folds, each with its numbers.
  public func toDOT() -> String {
    let folded = recipe.colorStages.map(\.description)
    return GraphvizChain.render(
      name: "plan",
      steps: explainedSteps.map { step in
        step.foldsStages ? .pass(title: step.text, stages: folded) : .stage(step.text)
      },
      output: "output")
  }

  /// Each step's text, and whether it is a lookup-table pass that folds the recipe's colour stages.
  private var explainedSteps: [(text: String, foldsStages: Bool)] {
    var steps: [(text: String, foldsStages: Bool)] = []
    if encoding != .sRGB {
      steps.append(
        (
          "colour encoding \(encoding): the controls act in its linear light "
            + "(\(encoding.transfer.lightName), \(encoding.primaries.rawValue) primaries)", false
        ))
    }
    if let zoom {
      steps.append(
        (
          "crop the zoom window: 1/\(format(zoom.factor)) of each side around "
            + "(\(format(zoom.center.x)), \(format(zoom.center.y)))", false
        ))
    }
    if needsAutoWhiteBalance {
      steps.append(
        (
          "measure grey-world gains on a sample of the window (stills \(AutoWhiteBalance.stillSampleWidth), "
            + "frames \(AutoWhiteBalance.frameSampleWidth) columns wide, smoothed over frames)",
          false
        ))
    }
    switch colorProgram {
    case .identity:
      if zoom == nil { steps.append(("identity: pixels pass through untouched", false)) }
    case .perChannel:
      steps.append(
        (
          "one pass of per-channel lookup tables (3 × 256 for 8-bit, 3 × 65536 for 16-bit input)",
          true
        ))
    case .mixing(let tables):
      let output = tables.output8
      steps.append(
        (
          "one fused pass: input tables (\(encoding.transfer.displayName) decode × gains) → 3×3 matrix "
            + matrixText(tables.matrix) + " → output tables of \(output.count) entries "
            + "(\(output.indexing == .linear ? "linear" : "square-root") index × \(format(Double(output.scale))))",
          true
        ))
    }
    if zoom != nil {
      steps.append(
        ("enlarge the window back to full size (stills: bicubic; frames: bilinear)", false))
    }
    return steps
  }

  private var foldedStages: String {
    recipe.colorStages.map(\.description).joined(separator: "; ")
  }

  private func matrixText(_ matrix: [Float]) -> String {
    "["
      + stride(from: 0, to: 9, by: 3).map { row in
        matrix[row..<(row + 3)].map { format(Double($0)) }.joined(separator: " ")
      }.joined(separator: "; ") + "]"
  }

  private func format(_ value: Double) -> String {
    String(format: "%.4g", value)
  }
}
