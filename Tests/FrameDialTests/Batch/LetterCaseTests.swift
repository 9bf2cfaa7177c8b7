import Foundation
import Testing

@testable import FrameDial

/// Outputs whose names differ only in letter case, on an output folder that ignores case (an SD card's
/// exFAT mounted on Linux): the second is reported as a collision instead of overwriting the first.
@Suite struct LetterCaseTests {
  /// An input folder holding `IMG_1.JPG` and `img_1.jpg`, two files on this case-sensitive disk.
  func scratch() throws -> URL {
    let root = try RenderFixtures.scratchFolder()
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for name in ["IMG_1.JPG", "img_1.jpg", "other.jpg"] {
      try FileManager.default.copyItem(
        atPath: RenderFixtures.sample("rocket.jpg"), toPath: input.appendingPathComponent(name).path
      )
    }
    return root
  }

  func items(_ root: URL, ignoresCase: Bool?) throws -> [BatchItem] {
    var layout = try BatchLayout(
      inputs: [root.appendingPathComponent("in").path],
      outputFolder: root.appendingPathComponent("out").path, naming: OutputNaming())
    layout.outputIgnoresCase = ignoresCase
    return try layout.items()
  }

  @Test func namesDifferingInCaseCollideWhereTheOutputFolderIgnoresCase() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let items = try items(root, ignoresCase: true)
    let problems = items.compactMap(\.problem)
    #expect(items.count == 3)
    #expect(problems.count == 1)
    #expect(problems.first?.contains("is already the output of") == true)
    #expect(problems.first?.contains("letter case") == true)
    // Told apart where the output folder tells case apart, as this disk does.
    #expect(try self.items(root, ignoresCase: false).allSatisfy { $0.problem == nil })
    #expect(try self.items(root, ignoresCase: nil).allSatisfy { $0.problem == nil })
  }

  @Test func aCaseSensitiveFolderIsRecognisedWithoutWritingAnything() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let before = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    // An existing folder with entries, a folder not made yet (its nearest existing parent decides),
    // and an empty folder (its own name, looked up in its parent).
    let empty = root.appendingPathComponent("Empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    #expect(!LetterCase.isIgnored(at: root.appendingPathComponent("in").path))
    #expect(!LetterCase.isIgnored(at: root.appendingPathComponent("not/made/yet").path))
    #expect(!LetterCase.isIgnored(at: empty.path))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        == (before + ["Empty"]).sorted())
  }

  @Test func aNameFoundUnderItsOtherCaseMeansTheFolderIgnoresCase() throws {
    // A folder where the upper-case spelling reaches the same file, as a case-insensitive file system
    // answers: here a symbolic link plays that part.
    let root = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("card")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("x".utf8).write(to: folder.appendingPathComponent("dcim"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("DCIM").path, withDestinationPath: "dcim")
    #expect(LetterCase.isIgnored(at: folder.path))
    #expect(LetterCase.isIgnored(at: folder.appendingPathComponent("out").path))
  }
}
