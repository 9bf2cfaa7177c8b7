extension Recipe {
  /// The recipe as a Graphviz `digraph`: input → one box per stage → output.
  public func toDOT() -> String {
    var lines = [
      "digraph recipe {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];",
    ]
    lines.append("  input [shape=oval, label=\"input\"];")
    for (index, stage) in stages.enumerated() {
      lines.append("  s\(index) [label=\"\(dotEscaped(stage.description))\"];")
    }
    lines.append("  output [shape=oval, label=\"output (clip 0…1, quantize)\"];")
    let names = ["input"] + stages.indices.map { "s\($0)" } + ["output"]
    lines.append("  " + names.joined(separator: " -> ") + ";")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }
}

private func dotEscaped(_ text: String) -> String {
  text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
}
