import Foundation
import TestSupport
import Testing
import Vips

@Suite struct ApplyExplainTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("cli") }

  func contents(_ folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  @Test func transparencyIntoJPEGIsFlattenedOntoWhiteOrTheBackgroundGivenAndSaidSo() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A fully transparent 8×8 RGBA PNG whose colour is black.
    let transparent = folder.appendingPathComponent("clear.png").path
    let pixels = try Image.solid(width: 8, height: 8, color: [0, 0, 0, 0])
    try pixels.write(to: transparent, format: .png)
    func flattened(_ extra: [String]) throws -> (CLIRunner.Result, [UInt8]) {
      let output = folder.appendingPathComponent("out-\(extra.count).jpg").path
      try? FileManager.default.removeItem(atPath: output)
      let result = try CLIRunner.run(["apply", transparent, "-o", output] + extra)
      let bytes = (try? Image(contentsOf: output).pixelBytes()) ?? []
      return (result, bytes)
    }
    let (white, whiteBytes) = try flattened([])
    #expect(white.status == 0, "\(white.standardError)")
    #expect(white.standardError.contains("its transparency was flattened onto white"))
    #expect(!whiteBytes.isEmpty && whiteBytes.allSatisfy { $0 >= 250 })
    let (red, redBytes) = try flattened(["--background", "#FF0000"])
    #expect(red.standardError.contains("flattened onto #FF0000"))
    #expect(redBytes.count == 8 * 8 * 3)
    #expect(
      stride(from: 0, to: redBytes.count, by: 3).allSatisfy {
        redBytes[$0] > 240 && redBytes[$0 + 1] < 15
      })
    let bad = try CLIRunner.run([
      "apply", transparent, "-o", folder.appendingPathComponent("x.jpg").path, "--background",
      "teal",
    ])
    #expect(bad.status == 2 && bad.standardError.contains("--background must be"))
    // PNG keeps the alpha: no flattening, no warning.
    let kept = try CLIRunner.run([
      "apply", transparent, "-o", folder.appendingPathComponent("k.png").path,
    ])
    #expect(kept.status == 0 && !kept.standardError.contains("flattened"))
  }

  @Test func aFormatThatDisagreesWithTheExtensionIsAUsageError() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("x.jpg").path
    let result = try CLIRunner.run([
      "apply", CLIRunner.sample("coffee.png"), "-o", output, "--format", "png",
    ])
    #expect(result.status == 2)
    #expect(result.standardError.contains("--format png disagrees with the output's extension"))
    #expect(!FileManager.default.fileExists(atPath: output))
    // Agreeing, or an extension that names no format, is fine.
    let agreeing = try CLIRunner.run([
      "apply", CLIRunner.sample("coffee.png"), "-o", output, "--format", "jpeg",
    ])
    #expect(agreeing.status == 0, "\(agreeing.standardError)")
    let unnamed = folder.appendingPathComponent("x.out").path
    let free = try CLIRunner.run([
      "apply", CLIRunner.sample("coffee.png"), "-o", unnamed, "--format", "png",
    ])
    #expect(free.status == 0, "\(free.standardError)")
  }

  @Test func typosGetTheNearestWordAndUnknownCommandsTwoLines() throws {
    let command = try CLIRunner.run(["aply", "x.jpg"])
    #expect(command.status == 2)
    #expect(
      command.standardError
        == "framedial: unknown command 'aply'. Did you mean 'apply'?\n"
        + "Try 'framedial --help' for the list of commands.\n")
    let option = try CLIRunner.run(["explain", "--unoptimised"])
    #expect(option.status == 2)
    #expect(
      option.standardError.contains("unknown option --unoptimised; did you mean --unoptimized?"))
    let value = try CLIRunner.run(["explain", "--set", "wb=tungstn"])
    #expect(value.status == 2 && value.standardError.contains(#"Did you mean "tungsten"?"#))
    let device = try CLIRunner.run(["controls", "--device", "iphone16pro"])
    #expect(device.status == 2 && device.standardError.contains("did you mean 'iphone-16-pro'?"))
    let preset = try CLIRunner.run(["explain", "--preset", "vivd"])
    #expect(preset.status == 2 && preset.standardError.contains(#"Did you mean "vivid"?"#))
  }

  @Test func applyWritesTheOutputAndLeavesTheInputAlone() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = CLIRunner.sample("rocket_exif_rotated.jpg")
    let before = try Data(contentsOf: URL(fileURLWithPath: input))
    let state = folder.appendingPathComponent("warm.json")
    try Data(#"{"whiteBalance": "shade", "contrast": 1.1}"#.utf8).write(to: state)
    let output = folder.appendingPathComponent("out.webp").path
    let result = try CLIRunner.run([
      "apply", input, "-o", output, "--state", state.path, "--set", "ev=0.3", "--quality", "80",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("640×427 webp"))
    let info = try CLIRunner.run(["info", output])
    #expect(
      info.standardOutput.contains(
        "640×427, 3 bands, uchar, srgb, orientation 1, ICC yes, webpload"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    #expect(contents(folder) == ["out.webp", "warm.json"])
  }

  @Test func badValuesAreUsageErrorsNamingKeyValueAndRange() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.jpg").path
    let result = try CLIRunner.run([
      "apply", CLIRunner.sample("rocket.jpg"), "-o", output, "--set", "zoom=40",
    ])
    #expect(result.status == 2)
    #expect(result.standardError.contains("zoom"))
    #expect(result.standardError.contains("40"))
    #expect(result.standardError.contains("16"))
    let unknown = try CLIRunner.run([
      "apply", CLIRunner.sample("rocket.jpg"), "-o", output, "--set", "warmth=2",
    ])
    #expect(unknown.status == 2)
    #expect(unknown.standardError.contains("warmth"))
    #expect(contents(folder).isEmpty)
  }

  @Test func unreadableInputAndUnwritableOutputFailWithExitOneAndNoFile() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let corrupt = folder.appendingPathComponent("corrupt.jpg")
    var bytes = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("rocket.jpg")))
    bytes = bytes.prefix(bytes.count / 2)
    try bytes.write(to: corrupt)
    let output = folder.appendingPathComponent("out.png").path
    let broken = try CLIRunner.run(["apply", corrupt.path, "-o", output, "--set", "ev=1"])
    #expect(broken.status == 1)
    #expect(broken.standardError.contains("corrupt.jpg"))
    #expect(contents(folder) == ["corrupt.jpg"])
    // A missing folder is created (ApplyStreamTests); one under a file cannot be.
    let underAFile = corrupt.appendingPathComponent("out.png").path
    let unwritable = try CLIRunner.run([
      "apply", CLIRunner.sample("rocket.jpg"), "-o", underAFile,
    ])
    #expect(unwritable.status == 1)
    #expect(unwritable.standardError.contains("corrupt.jpg: not a directory"))
    #expect(contents(folder) == ["corrupt.jpg"])
    let ontoInput = try CLIRunner.run(["apply", corrupt.path, "-o", corrupt.path])
    #expect(ontoInput.status == 1)
    #expect(ontoInput.standardError.contains("refusing to write onto the input file"))
  }

  @Test func explainPrintsThePlanBeforeAndAfterOptimization() throws {
    let optimized = try CLIRunner.run([
      "explain", "--set", "ev=0.5", "--set", "saturation=1.3", "--set", "zoom=1.5",
    ])
    #expect(optimized.status == 0)
    #expect(optimized.standardOutput.contains("crop the zoom window"))
    #expect(optimized.standardOutput.contains("3×3 matrix"))
    let unoptimized = try CLIRunner.run(["explain", "--set", "ev=0.5", "--unoptimized"])
    #expect(unoptimized.standardOutput.contains("decode sRGB"))
    #expect(unoptimized.standardOutput.contains("exposure +0.5 EV"))
    let dot = try CLIRunner.run(["explain", "--set", "filter=mono", "--dot"])
    #expect(dot.standardOutput.hasPrefix("digraph plan {"))
    let identity = try CLIRunner.run(["explain"])
    #expect(identity.standardOutput.contains("identity"))
  }
}
