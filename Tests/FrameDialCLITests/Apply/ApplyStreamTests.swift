import Foundation
import TestSupport
import Testing
import Vips

/// `apply -` reads the image from standard input, `apply -o -` writes it to standard output, and
/// `apply` creates the output's folder.
@Suite struct ApplyStreamTests {
  /// The reference: rocket.jpg rendered from its file into a PNG with exposure +1.
  func reference(in folder: URL) throws -> [UInt8] {
    let path = folder.appendingPathComponent("reference.png").path
    let result = try CLIRunner.run([
      "apply", CLIRunner.sample("rocket.jpg"), "-o", path, "--set", "ev=1",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    return try Image(contentsOf: path).pixelBytes()
  }

  @Test func standardInputRendersLikeTheFileIntoAFolderApplyCreates() throws {
    let folder = try CLIRunner.scratchFolder("stream")
    defer { try? FileManager.default.removeItem(at: folder) }
    let want = try reference(in: folder)
    let photo = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("rocket.jpg")))
    let output = folder.appendingPathComponent("new/sub/out.png").path
    let result = try CLIRunner.run(
      ["apply", "-", "-o", output, "--set", "ev=1"], input: photo)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("standard input → \(output) (640×427 png)"))
    #expect(try Image(contentsOf: output).pixelBytes() == want)
  }

  @Test func standardOutputCarriesTheImageInTheFormatAsked() throws {
    let folder = try CLIRunner.scratchFolder("stream")
    defer { try? FileManager.default.removeItem(at: folder) }
    let want = try reference(in: folder)
    let photo = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("rocket.jpg")))
    for input in [CLIRunner.sample("rocket.jpg"), "-"] {
      let result = try CLIRunner.run(
        ["apply", input, "-o", "-", "--format", "png", "--set", "ev=1"],
        input: input == "-" ? photo : Data())
      #expect(result.status == 0, "\(result.standardError)")
      // The image is all standard output carries; the report line goes to standard error.
      #expect(result.outputBytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
      #expect(result.standardError.contains("→ standard output (640×427 png)"))
      let written = folder.appendingPathComponent("from-stdout.png")
      try result.outputBytes.write(to: written)
      #expect(try Image(contentsOf: written.path).pixelBytes() == want)
    }
    let noFormat = try CLIRunner.run(["apply", CLIRunner.sample("rocket.jpg"), "-o", "-"])
    #expect(noFormat.status == 2)
    #expect(noFormat.standardError.contains("give its format with --format"))
    #expect(noFormat.outputBytes.isEmpty)
  }

  @Test func badStandardInputIsNamedAndNothingIsWritten() throws {
    let folder = try CLIRunner.scratchFolder("stream")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("rocket.jpg")))
    let output = folder.appendingPathComponent("out.jpg").path
    for (input, message) in [
      (photo.prefix(1000), "standard input: cannot read"),
      (Data("hello\n".utf8), "standard input: not a known image format"),
      (Data(), "standard input is empty"),
    ] {
      let result = try CLIRunner.run(["apply", "-", "-o", output], input: Data(input))
      #expect(result.status == 1)
      #expect(result.standardError.contains(message), "\(result.standardError)")
      #expect(!result.standardError.contains("framedial-partial"))
      let piped = try CLIRunner.run(
        ["apply", "-", "-o", "-", "--format", "jpeg"], input: Data(input))
      #expect(piped.status == 1 && piped.outputBytes.isEmpty)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func anOutputFolderThatCannotBeMadeIsOnePlainLine() throws {
    let folder = try CLIRunner.scratchFolder("stream")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("file")
    try Data("x".utf8).write(to: file)
    let result = try CLIRunner.run([
      "apply", CLIRunner.sample("rocket.jpg"), "-o", file.appendingPathComponent("a/out.jpg").path,
    ])
    #expect(result.status == 1)
    #expect(
      result.standardError
        == "framedial apply: cannot create the folder \(file.path)/a: not a directory\n")
  }
}
