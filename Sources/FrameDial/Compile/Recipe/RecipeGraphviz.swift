extension Recipe {
  /// The recipe as a Graphviz `digraph`: input → one box per stage → output.
  public func toDOT() -> String {
    GraphvizChain.render(
      name: "recipe", steps: stages.map(\.description), output: "output (clip 0…1, quantize)")
  }
}

/// A chain of steps as a Graphviz `digraph`, left to right.
enum GraphvizChain {
  /// `input → steps… → output`, one box per step.
  static func render(name: String, steps: [String], output: String) -> String {
    var lines = [
      "digraph \(name) {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];",
      "  input [shape=oval, label=\"input\"];",
    ]
    for (index, step) in steps.enumerated() {
      lines.append("  s\(index) [label=\"\(escaped(step))\"];")
    }
    lines.append("  output [shape=oval, label=\"\(escaped(output))\"];")
    let names = ["input"] + steps.indices.map { "s\($0)" } + ["output"]
    lines.append("  " + names.joined(separator: " -> ") + ";")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
  }
}
