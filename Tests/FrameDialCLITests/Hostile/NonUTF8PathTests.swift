import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A file whose name is not valid UTF-8 (Linux names are bytes) is refused by every command in the
/// same words, never reported as missing, and never written under a changed name.
@Suite struct NonUTF8PathTests {
  /// `text` as bytes, with each U+FFFD standing for the byte 0xFF.
  func bytes(_ text: String) -> [UInt8] {
    text.unicodeScalars.flatMap { $0 == "\u{FFFD}" ? [0xFF] : Array(String($0).utf8) }
  }

  /// Runs `framedial arguments…` from a shell script that holds each argument's bytes (``bytes(_:)``),
  /// as a shell passes a name typed or globbed.
  func run(_ arguments: [String], in root: URL) throws -> CLIRunner.Result {
    var script = Array("exec".utf8)
    for argument in [CLIRunner.binary.path] + arguments {
      #expect(!argument.contains("'"))
      script += Array(" '".utf8) + bytes(argument) + Array("'".utf8)
    }
    let file = root.appendingPathComponent("run.sh")
    try Data(script + [0x0A]).write(to: file)
    return try CLIRunner.run([file.path], executable: URL(fileURLWithPath: "/bin/sh"))
  }

  /// Copies `sample` to the path `path` (``bytes(_:)``), creating a folder there instead when nil.
  func make(_ path: String, copying sample: String?) throws {
    let name = bytes(path) + [0]
    let made = name.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters -> Bool in
        guard let path = characters.baseAddress else { return false }
        guard let sample else { return mkdir(path, 0o755) == 0 }
        guard let contents = FileManager.default.contents(atPath: sample) else { return false }
        let descriptor = open(path, O_CREAT | O_WRONLY | O_EXCL, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
          == contents.count
      }
    }
    try #require(made, "cannot make \(path)")
  }

  /// The names in `folder` but hidden ones (a batch's records), each bad byte shown as U+FFFD.
  func names(in folder: URL) throws -> Set<String> {
    Set(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
    )
  }

  @Test func everyCommandRefusesTheFileInTheSameWords() throws {
    let root = try CLIRunner.scratchFolder("not-utf8")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let bad = input.path + "/caf\u{FFFD}.jpg"
    try make(bad, copying: CLIRunner.sample("rocket.jpg"))
    let plain = input.appendingPathComponent("plain.png").path
    try FileManager.default.copyItem(atPath: CLIRunner.sample("coffee.png"), toPath: plain)
    let refusal = "\(bad): the file name is not valid UTF-8: rename the file"

    let output = root.appendingPathComponent("out.png").path
    let apply = try run(["apply", bad, "-o", output], in: root)
    #expect(apply.status == 1)
    #expect(apply.standardError == "framedial apply: \(refusal)\n")
    #expect(!FileManager.default.fileExists(atPath: output))

    let info = try run(["info", bad, plain], in: root)
    #expect(info.status == 1)
    #expect(info.standardError == "framedial info: \(refusal)\n")
    #expect(info.standardOutput.hasPrefix("\(plain): 600×400"), "\(info.standardOutput)")
    let infoJSON = try run(["info", bad, "--json"], in: root)
    let object =
      try JSONSerialization.jsonObject(with: Data(infoJSON.standardOutput.utf8)) as? [String: Any]
    #expect(object?["error"] as? String == refusal)

    // Given by name, or found in a folder: one failed file, the others done.
    for inputs in [[bad, plain], [input.path]] {
      let out = root.appendingPathComponent("batch-\(inputs.count)")
      let batch = try run(["batch"] + inputs + ["-o", out.path], in: root)
      #expect(batch.status == 1)
      #expect(batch.standardError.contains("failed  \(refusal)\n"), "\(batch.standardError)")
      #expect(batch.standardError.contains("1 done, 0 skipped, 1 failed"))
      #expect(try names(in: out) == ["plain.png"])
    }

    // A command that is not one of the three says the same.
    let video = try run(["video", bad, "-o", root.appendingPathComponent("v.mp4").path], in: root)
    #expect(video.standardError == "framedial video: \(refusal)\n", "\(video.standardError)")
  }

  @Test func aFolderOnThePathAMissingFileAndAnOutputAreToldApart() throws {
    let root = try CLIRunner.scratchFolder("not-utf8-paths")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.path + "/d\u{FFFD}"
    try make(folder, copying: nil)
    try make(folder + "/x.png", copying: CLIRunner.sample("coffee.png"))
    let output = root.appendingPathComponent("out.png").path

    let inFolder = try run(["apply", folder + "/x.png", "-o", output], in: root)
    #expect(
      inFolder.standardError
        == "framedial apply: \(folder)/x.png: a folder name in the path is not valid UTF-8: "
        + "rename the folder\n")
    let batch = try run(["batch", folder, "-o", root.appendingPathComponent("b").path], in: root)
    #expect(
      batch.standardError.contains(
        "failed  \(folder): the folder name is not valid UTF-8: rename the folder\n"),
      "\(batch.standardError)")

    // Bytes that name nothing: missing, as any other name.
    let missing = try run(["apply", root.path + "/gone\u{FFFD}.jpg", "-o", output], in: root)
    #expect(
      missing.standardError == "framedial apply: \(root.path)/gone\u{FFFD}.jpg: no such file\n")

    // An output name that is not UTF-8 would be written under another name: refused before any work.
    for arguments in [
      ["-o", root.path + "/o\u{FFFD}.png"], ["--output=" + root.path + "/o\u{FFFD}.png"],
    ] {
      let refused = try run(["apply", CLIRunner.sample("coffee.png")] + arguments, in: root)
      #expect(refused.status == 1)
      #expect(
        refused.standardError
          == "framedial apply: \(root.path)/o\u{FFFD}.png: the output's name is not valid UTF-8: "
          + "give a name in UTF-8\n")
    }
    #expect(try names(in: root) == ["b", "d\u{FFFD}", "run.sh"])
  }
}
