import Foundation
import TestSupport
import Testing

@testable import FrameDialCLI
@testable import FrameDialFullCLI

/// Each command-line option is written once, in its declaration: commands read options through their
/// declarations (`arguments[option]`, never a name in a string), messages and help name another option
/// by interpolating its declaration, and every usage line is made from the declarations.
@Suite struct OptionDeclarationTests {
  /// The long names of every option of every command.
  static let optionNames = Set(FullCLI.commands.flatMap { $0.parser.options.map(\.name) })

  /// The lines of code of Sources/FrameDialCLI: comment lines and trailing comments left out.
  static func codeLines() throws -> [(place: String, text: String)] {
    let folder = CLIRunner.repository.appendingPathComponent("Sources/FrameDialCLI")
    let files = try #require(
      FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    )
    .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    #expect(files.count > 40)
    var lines: [(String, String)] = []
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let code = line.components(separatedBy: " // ")[0]
        if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
        lines.append(("\(file.lastPathComponent):\(index + 1)", code))
      }
    }
    return lines
  }

  @Test func noOptionIsLookedUpByName() throws {
    // (`"` is escaped: unescaped, Swift's regular expressions read it as the start of a quotation.)
    let lookup = try Regex(
      ##"(arguments|parsed)\.(value|flag|int)\(\"|(values|flags)\[\"|flags\.contains\(\""##)
    let found = try Self.codeLines().filter { $0.text.contains(lookup) }
    #expect(found.isEmpty, "\(found.map { "\($0.place): \($0.text)" })")
  }

  @Test func noOptionIsSpelledOutInText() throws {
    let spelled = try Regex("--([a-z][a-z0-9-]*)")
    var found: [String] = []
    for line in try Self.codeLines() {
      for match in line.text.matches(of: spelled) {
        guard let name = match.output[1].substring.map(String.init) else { continue }
        if Self.optionNames.contains(name) { found.append("\(line.place): --\(name)") }
      }
    }
    #expect(found.isEmpty, "\(found)")
  }

  @Test(arguments: FullCLI.commands.map { $0.name })
  func eachOptionIsDeclaredOnceAndShownInUsage(command name: String) throws {
    let command = try #require(FullCLI.commands.first { $0.name == name })
    let options = command.parser.options
    #expect(Set(options.map(\.name)).count == options.count)
    let shorts = options.compactMap(\.short)
    #expect(Set(shorts).count == shorts.count)
    // The usage line (of one form or several) shows every option, by its long name or its short one,
    // and nothing else that looks like one.
    let spelled = try Regex("^(--[a-z][a-z0-9-]*|-[a-zA-Z])$")
    let spellings = Set(options.flatMap { ["--\($0.name)"] + ($0.short.map { ["-\($0)"] } ?? []) })
    let words = command.usage.split(whereSeparator: { " []()|…".contains($0) }).map(String.init)
    let shown = Set(words.filter { $0.wholeMatch(of: spelled) != nil })
    #expect(shown.isSubset(of: spellings), "\(command.usage)")
    for option in options {
      let short = option.short.map { "-\($0)" } ?? ""
      #expect(
        shown.contains("--\(option.name)") || shown.contains(short),
        "\(command.usage) does not show --\(option.name)")
    }
  }
}
