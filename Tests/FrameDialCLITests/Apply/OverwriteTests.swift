import Foundation
import TestSupport
import Testing
import Vips

/// The commands that write one file leave an existing output as it is unless `--overwrite` (`-y`) is
/// given, and say so in one line before any work; with the flag they replace it.
@Suite struct OverwriteTests {
  /// A command line per single-output command, writing to `output`, reading `photo` or `clip`.
  static func commands(photo: String, clip: String, output: (String) -> String) -> [[String]] {
    [
      ["apply", photo, "-o", output("apply.jpg"), "--set", "ev=0.5"],
      ["lut", "-o", output("look.cube"), "--size", "3", "--set", "ev=0.5"],
      ["preview", photo, "-o", output("preview.png")],
      ["sweep", photo, "-o", output("sweep.png"), "--control", "ev", "--values", "0,1"],
      ["video", clip, "-o", output("video.mp4"), "--set", "ev=0.5"],
      ["video", clip, "--frame-at", "0.2", "-o", output("frame.png"), "--set", "ev=0.5"],
    ]
  }

  @Test func anExistingOutputIsReplacedOnlyWithOverwrite() throws {
    let folder = try CLIRunner.scratchFolder("overwrite")
    defer { try? FileManager.default.removeItem(at: folder) }
    let clip = folder.appendingPathComponent("clip.mp4")
    try VideoClips.make(
      clip, VideoClips.testSource(seconds: 0.5) + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
    let commands = Self.commands(
      photo: CLIRunner.sample("rocket.jpg"), clip: clip.path,
      output: { folder.appendingPathComponent($0).path })
    let precious = Data("a finished edit".utf8)
    for command in commands {
      guard let flag = command.firstIndex(of: "-o") else { continue }
      let output = command[flag + 1]
      try precious.write(to: URL(fileURLWithPath: output))
      let refused = try CLIRunner.run(command)
      #expect(refused.status == 1, "\(command[0]): \(refused.standardError)")
      #expect(
        refused.standardError
          == "framedial \(command[0]): \(output) exists; add --overwrite (-y) to replace it\n")
      #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == precious, "\(command[0])")
      for flag in ["--overwrite", "-y"] {
        let replaced = try CLIRunner.run(command + [flag])
        #expect(replaced.status == 0, "\(command) \(flag): \(replaced.standardError)")
        let written = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(written != precious && written.count > 100, "\(command) \(flag)")
        try precious.write(to: URL(fileURLWithPath: output))
      }
    }
  }

  @Test func writingOntoTheInputIsRefusedEvenWithOverwrite() throws {
    let folder = try CLIRunner.scratchFolder("overwrite-input")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = folder.appendingPathComponent("photo.jpg")
    try FileManager.default.copyItem(atPath: CLIRunner.sample("rocket.jpg"), toPath: photo.path)
    let before = try Data(contentsOf: photo)
    let result = try CLIRunner.run(["apply", photo.path, "-o", photo.path, "-y", "--set", "ev=1"])
    #expect(result.status == 1)
    #expect(result.standardError.contains("refusing to write onto the input file"))
    #expect(try Data(contentsOf: photo) == before)
  }

  @Test func aLinkThatLeadsNowhereCountsAsAnExistingOutput() throws {
    let folder = try CLIRunner.scratchFolder("overwrite-link")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.jpg")
    try FileManager.default.createSymbolicLink(
      atPath: output.path, withDestinationPath: folder.appendingPathComponent("gone.jpg").path)
    let result = try CLIRunner.run(["apply", CLIRunner.sample("rocket.jpg"), "-o", output.path])
    #expect(result.status == 1)
    #expect(result.standardError.contains("exists; add --overwrite (-y)"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("gone.jpg").path))
  }
}
