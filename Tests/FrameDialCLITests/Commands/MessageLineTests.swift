import Foundation
import TestSupport
import Testing

/// A message is one line that ends at its last word: the newlines libraries end their messages with
/// (libheif's, libvips's `vips_error_system`) never reach the command line's text (as `\u{A}`), the
/// `"error"` of `--json`, or the C API (see also Tests/CAPI/capi_test.c's `test_messages`).
@Suite struct MessageLineTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("message-line") }

  /// Runs framedial where files may grow to 40 blocks (20 KB in dash's 512-byte blocks), with SIGXFSZ
  /// ignored (as `trap '' XFSZ` does), so that writing past the limit fails as on a full disk.
  func runOnAFullDisk(_ arguments: [String]) throws -> CLIRunner.Result {
    try CLIRunner.run(
      ["-c", "ulimit -f 40 && trap '' XFSZ && exec \"$0\" \"$@\"", CLIRunner.binary.path]
        + arguments, executable: URL(fileURLWithPath: "/bin/sh"))
  }

  /// The one batch `--json` event of a file (the line that has a "status").
  func fileEvent(_ output: String) throws -> [String: Any] {
    for line in output.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      if let object, object["status"] != nil { return object }
    }
    return [:]
  }

  /// True when `message` is one line without escaped control characters that ends at a visible
  /// character.
  func isOneCleanLine(_ message: String) -> Bool {
    !message.isEmpty && !message.contains(where: \.isNewline) && !message.contains("\\u{")
      && !(message.last?.isWhitespace ?? true)
  }

  /// True when `standardError` is one clean line (``isOneCleanLine(_:)``) and its newline.
  func isOneCleanLine(standardError: String) -> Bool {
    standardError.hasSuffix("\n") && isOneCleanLine(String(standardError.dropLast()))
  }

  @Test func aHEICThatCannotBeWrittenWholeFailsWithOneLine() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let output = root.appendingPathComponent("out.heic").path
    let apply = try runOnAFullDisk(["apply", CLIRunner.sample("rocket.jpg"), "-o", output])
    #expect(apply.status == 1)
    #expect(apply.standardError.hasPrefix("framedial apply: "), "\(apply.standardError)")
    #expect(isOneCleanLine(standardError: apply.standardError), "\(apply.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output))

    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"), toPath: input.appendingPathComponent("a.jpg").path)
    let batch = try runOnAFullDisk([
      "batch", input.path, "-o", root.appendingPathComponent("out").path, "--format", "heic",
      "--json",
    ])
    #expect(batch.status == 1)
    let event = try fileEvent(batch.standardOutput)
    #expect(event["status"] as? String == "failed", "\(batch.standardOutput)")
    let error = event["error"] as? String ?? ""
    #expect(isOneCleanLine(error), "\(error)")
  }

  /// libheif's message ends with a newline, inside libvips's message (which adds its error code after
  /// it); HEIFTests' HEIFErrorTests read the same cut HEIC with libheif alone.
  @Test func libheifsMessageOfACutHEICIsOneLine() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("coffee.heic")))
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let cut = input.appendingPathComponent("cut.heic")
    try bytes.prefix(bytes.count / 3).write(to: cut)

    let apply = try CLIRunner.run([
      "apply", cut.path, "-o", root.appendingPathComponent("out.png").path,
    ])
    #expect(apply.status == 1)
    #expect(apply.standardError.contains("outside of file bounds"), "\(apply.standardError)")
    #expect(isOneCleanLine(standardError: apply.standardError), "\(apply.standardError)")

    let batch = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("out").path, "--json",
    ])
    let error = try fileEvent(batch.standardOutput)["error"] as? String ?? ""
    #expect(error.contains("outside of file bounds"), "\(batch.standardOutput)")
    #expect(isOneCleanLine(error), "\(error)")
  }
}
