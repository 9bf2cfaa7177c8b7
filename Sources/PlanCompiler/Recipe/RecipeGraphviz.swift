extension Recipe {
  /// The recipe as a Graphviz `digraph`: input → one box per stage → output, top to bottom.
  public func toDOT() -> String {
    GraphvizChain.render(
      name: "recipe", steps: stages.map { .stage($0.description) },
      output: "output (clip 0…1, quantize)")
  }
}

/// A chain of steps as a Graphviz `digraph`, top to bottom, with labels wrapped so the picture stays
/// readable: a tall, narrow column rather than one very long row.
package enum GraphvizChain {
  /// One step of the chain.
  package enum Step: Equatable {
    /// A box of its own.
    case stage(String)
    /// Several stages done in one pass: a titled frame around one box per stage.
    case pass(title: String, stages: [String])
  }

  /// Labels are wrapped at about this many characters.
  static let wrapWidth = 40

  /// `input → steps… → output`, one box per stage.
  package static func render(name: String, steps: [Step], output: String) -> String {
    var lines = [
      "digraph \(name) {", "  rankdir=TB;", "  graph [fontname=\"Helvetica\"];",
      "  node [shape=box, fontname=\"Helvetica\"];",
      "  input [shape=oval, label=\"input\"];",
    ]
    var chain = ["input"]
    var box = 0
    for (index, step) in steps.enumerated() {
      switch step {
      case .stage(let text):
        lines.append("  s\(box) [label=\"\(label(text))\"];")
        chain.append("s\(box)")
        box += 1
      case .pass(let title, let stages):
        lines.append("  subgraph cluster_\(index) {")
        lines.append("    label=\"\(label(title))\"; style=rounded;")
        for text in stages {
          lines.append("    s\(box) [label=\"\(label(text))\"];")
          chain.append("s\(box)")
          box += 1
        }
        lines.append("  }")
      }
    }
    lines.append("  output [shape=oval, label=\"\(label(output))\"];")
    chain.append("output")
    lines.append("  " + chain.joined(separator: " -> ") + ";")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` escaped for a DOT string, broken into lines of about ``wrapWidth`` characters at spaces.
  static func label(_ text: String) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if !line.isEmpty && line.count + 1 + word.count > wrapWidth {
        lines.append(line)
        line = String(word)
      } else {
        line += (line.isEmpty ? "" : " ") + word
      }
    }
    lines.append(line)
    return lines.map(escaped).joined(separator: "\\n")
  }

  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
  }
}
