import Foundation
import HEIF
import TestSupport
import Testing

/// ``HEIFError``'s message when libheif itself reads a HEIC (``HEIFFile``): libheif's words, as one line
/// that ends at its last word, though libheif ends its message with a newline.
@Suite struct HEIFErrorTests {
  @Test func libheifsMessageOfACutHEICIsOneLine() throws {
    let root = try CLIRunner.scratchFolder("heif-error")
    defer { try? FileManager.default.removeItem(at: root) }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("coffee.heic")))
    let cut = root.appendingPathComponent("cut.heic")
    try bytes.prefix(bytes.count / 3).write(to: cut)
    let direct = #expect(throws: HEIFError.self) { try HEIFFile(path: cut.path) }
    let message = direct?.message ?? ""
    #expect(message.contains("outside of file bounds"), "\(message)")
    #expect(!message.contains { $0.isNewline }, "\(message)")
    #expect(!(message.last?.isWhitespace ?? true), "\(message)")
  }
}
