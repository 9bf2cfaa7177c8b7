import Foundation
import TestSupport
import Testing

/// The `framedial lut` examples of the README and the manual (`docs/`), run as printed: a look file named
/// warm warms a grey, one named cool cools it, so an example never hands a reader a file that does the
/// opposite of its name.
@Suite struct ReadmeLookNameTests {
  /// The `framedial lut -o NAME.cube …` command lines of README.md and docs/**/*.md, split into words.
  static func lutExamples() throws -> [[String]] {
    let repository = CLIRunner.repository
    var pages = [repository.appendingPathComponent("README.md")]
    let docs = repository.appendingPathComponent("docs")
    if let walker = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil) {
      pages += walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" }
    }
    let text = try pages.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    return text.split(separator: "\n")
      .filter { $0.hasPrefix("framedial lut -o ") && !$0.contains("[") }
      .map { $0.split(separator: " ").map(String.init) }
  }

  @Test func theReadmeShowsALutExample() throws {
    #expect(!(try Self.lutExamples()).isEmpty)
  }

  @Test(arguments: try lutExamples())
  func aLookNamedForItsColourHasThatColour(words: [String]) throws {
    let name = words[3]
    let warm = name.lowercased().contains("warm")
    let cool = name.lowercased().contains("cool")
    #expect(warm || cool || !name.hasSuffix(".cube"), "\(name) names no colour this test checks")
    let folder = try CLIRunner.scratchFolder("readme-lut")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cube = folder.appendingPathComponent(name)
    var arguments = Array(words.dropFirst())
    arguments[2] = cube.path
    let result = try CLIRunner.run(arguments)
    #expect(result.status == 0, "\(result.standardError)")
    // The node nearest the middle grey: red runs fastest, then green, then blue.
    let rows = try String(contentsOf: cube, encoding: .utf8).split(separator: "\n")
      .filter { $0.first.map { $0.isNumber || $0 == "-" } ?? false }
    let size = Int(cbrt(Double(rows.count)).rounded())
    #expect(size * size * size == rows.count)
    let middle = size / 2
    let row = rows[middle + middle * size + middle * size * size].split(separator: " ")
      .compactMap { Double($0) }
    #expect(row.count == 3)
    guard row.count == 3 else { return }
    if warm { #expect(row[0] > row[2] + 0.01, "\(name) at grey: \(row)") }
    if cool { #expect(row[2] > row[0] + 0.01, "\(name) at grey: \(row)") }
  }
}
