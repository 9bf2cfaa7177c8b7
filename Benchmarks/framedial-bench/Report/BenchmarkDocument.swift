/// The benchmark report kept in a Markdown file (docs/benchmarks.md): a preamble, kept as found, then one
/// block per section, each the latest run of that section between two marker comments.
///
/// `--write FILE` replaces the blocks of the sections a run measured and keeps every other block, so a
/// run of one section (`--only raw`) leaves the tables of earlier runs of the others in place, and the
/// file always holds the latest measurement of each section.
struct BenchmarkDocument: Equatable {
  /// One section's block: its name (`frames`, `raw`, …) and the Markdown between its markers.
  struct Block: Equatable {
    var name: String
    var body: String
  }

  /// A file that cannot be read as a benchmark document; the message names the line.
  struct ParseError: Error, Equatable {
    var message: String
  }

  /// The text before the first section, kept as it is.
  var preamble: String
  /// The sections, in the file's order.
  var blocks: [Block]

  /// The preamble of a new file.
  static let defaultPreamble = """
    # Benchmarks

    Written by `framedial-bench --write FILE`: each section below is the latest run of that section, with
    its own machine, date, load and run kind; a run replaces the sections it measured and keeps the others.
    """

  private static let startPrefix = "<!-- framedial-bench section "
  private static let endPrefix = "<!-- framedial-bench end of section "

  /// The marker line that opens section `name`'s block.
  static func startMarker(_ name: String) -> String {
    startPrefix + name + ": written by framedial-bench --write, replaced by its next run -->"
  }

  /// The marker line that closes section `name`'s block.
  static func endMarker(_ name: String) -> String { endPrefix + name + " -->" }

  /// A document with `preamble` and no sections.
  init(preamble: String = BenchmarkDocument.defaultPreamble) {
    self.preamble = preamble
    blocks = []
  }

  /// Reads a document written by `text` (this type's own output, perhaps edited by hand outside the
  /// blocks' bodies).
  ///
  /// - Throws: `ParseError` for a block that is not closed, closed under another name, opened twice or
  ///   inside another, or for text between blocks (which writing would lose).
  init(parsing text: String) throws(ParseError) {
    var preamble: [Substring] = []
    var blocks: [Block] = []
    var open: (name: String, line: Int, body: [Substring])?
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let number = index + 1
      if let name = Self.name(in: line, after: Self.startPrefix) {
        if let open {
          throw ParseError(
            message: "line \(number): section \(name) starts inside section \(open.name) "
              + "(opened on line \(open.line))")
        }
        if blocks.contains(where: { $0.name == name }) {
          throw ParseError(message: "line \(number): section \(name) appears twice")
        }
        open = (name, number, [])
      } else if let name = Self.name(in: line, after: Self.endPrefix) {
        guard let section = open, section.name == name else {
          throw ParseError(
            message: "line \(number): the end of section \(name) "
              + (open.map { "inside section \($0.name)" } ?? "without its start"))
        }
        blocks.append(Block(name: name, body: Self.trimmed(section.body)))
        open = nil
      } else if open != nil {
        open?.body.append(line)
      } else if blocks.isEmpty {
        preamble.append(line)
      } else if !line.allSatisfy(\.isWhitespace) {
        throw ParseError(
          message: "line \(number): text between sections, which writing the file would lose; "
            + "move it into the preamble")
      }
    }
    if let open {
      throw ParseError(message: "line \(open.line): section \(open.name) is not closed")
    }
    self.preamble = Self.trimmed(preamble)
    self.blocks = blocks
  }

  /// Replaces section `name`'s block with `body`, or adds it: before the first block of a section that
  /// comes later in `order`, else at the end. Sections `order` does not name count as coming after all
  /// that it names.
  mutating func replace(_ name: String, with body: String, order: [String]) {
    let block = Block(
      name: name, body: Self.trimmed(body.split(separator: "\n", omittingEmptySubsequences: false)))
    if let index = blocks.firstIndex(where: { $0.name == name }) {
      blocks[index] = block
      return
    }
    let rank = { (name: String) in order.firstIndex(of: name) ?? order.count }
    let later = blocks.firstIndex { rank($0.name) > rank(name) }
    blocks.insert(block, at: later ?? blocks.count)
  }

  /// The document as Markdown, ending in a newline.
  var text: String {
    var parts = [preamble]
    for block in blocks {
      parts.append(
        Self.startMarker(block.name) + "\n\n" + block.body + "\n\n" + Self.endMarker(block.name))
    }
    return parts.joined(separator: "\n\n") + "\n"
  }

  /// The section name of a marker line that starts with `prefix`, or nil.
  private static func name(in line: Substring, after prefix: String) -> String? {
    guard line.hasPrefix(prefix) else { return nil }
    let name = line.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber || $0 == "-" }
    return name.isEmpty ? nil : String(name)
  }

  /// Lines joined, without the blank lines at either end.
  private static func trimmed(_ lines: [Substring]) -> String {
    let isBlank: (Substring) -> Bool = { $0.allSatisfy(\.isWhitespace) }
    guard let first = lines.firstIndex(where: { !isBlank($0) }),
      let last = lines.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return lines[first...last].joined(separator: "\n")
  }
}
