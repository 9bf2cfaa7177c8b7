import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `batch --allow-output-inside` with the output folder inside an input folder, or the input folder
/// itself: a rerun resumes, and never takes the outputs of earlier runs for inputs.
@Suite struct BatchOutputInsideTests {
  /// Every file under `folder` except hidden ones (the records), by relative path, with its inode and
  /// modification time: what a run wrote or replaced shows in them.
  func files(under folder: URL) -> [String: [Int]] {
    var result: [String: [Int]] = [:]
    let names = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
    for name in names ?? [] where !name.split(separator: "/").contains(where: { $0.hasPrefix(".") })
    {
      var info = stat()
      guard stat(folder.appendingPathComponent(name).path, &info) == 0,
        info.st_mode & S_IFMT == S_IFREG
      else { continue }
      result[name] = [Int(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
    }
    return result
  }

  /// The file events (path below `input` → status) and the summary of a `--json` run.
  func events(_ result: CLIRunner.Result, input: URL) -> (
    files: [String: String], summary: [String: Any]
  ) {
    let objects = result.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    var files: [String: String] = [:]
    for object in objects where object["event"] as? String == "file" {
      let path = (object["path"] as? String ?? "").replacingOccurrences(
        of: input.path + "/", with: "")
      files[path] = object["status"] as? String
    }
    return (files, objects.last { $0["event"] as? String == "summary" } ?? [:])
  }

  @Test(arguments: ["", "edited"]) func aRerunResumesAndNeverTakesItsOwnOutputsForInputs(
    outputBelowInput: String
  ) throws {
    let root = try CLIRunner.scratchFolder("output-inside")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(
      at: input.appendingPathComponent("day2"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"), toPath: input.appendingPathComponent("a.jpg").path)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("coffee.png"),
      toPath: input.appendingPathComponent("day2/b.png").path)
    let output = outputBelowInput.isEmpty ? input : input.appendingPathComponent(outputBelowInput)
    let batch = [
      "batch", input.path, "-o", output.path, "--allow-output-inside", "--name", "{stem}-fd.{ext}",
      "--json", "--size", "64",
    ]
    let prefix = outputBelowInput.isEmpty ? "" : outputBelowInput + "/"

    let first = try CLIRunner.run(batch)
    #expect(first.status == 0, "\(first.standardError)")
    #expect(events(first, input: input).files == ["a.jpg": "done", "day2/b.png": "done"])
    let written = files(under: input)
    #expect(
      Set(written.keys)
        == ["a.jpg", "day2/b.png", prefix + "a-fd.jpg", prefix + "day2/b-fd.png"])

    // Nothing new: each input skipped as done, no output taken for an input, no file written.
    let second = try CLIRunner.run(batch)
    #expect(second.status == 0, "\(second.standardError)")
    let (secondFiles, secondSummary) = events(second, input: input)
    #expect(
      secondFiles == ["a.jpg": "skipped", "day2/b.png": "skipped"], "\(second.standardOutput)")
    #expect(secondSummary["done"] as? Int == 0 && secondSummary["skipped"] as? Int == 2)
    #expect(files(under: input) == written)

    // One input more: only it is processed.
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("chelsea.png"), toPath: input.appendingPathComponent("c.png").path)
    let third = try CLIRunner.run(batch)
    #expect(third.status == 0, "\(third.standardError)")
    #expect(
      events(third, input: input).files
        == ["a.jpg": "skipped", "day2/b.png": "skipped", "c.png": "done"],
      "\(third.standardOutput)")
    var expected = written
    expected["c.png"] = files(under: input)["c.png"]
    expected[prefix + "c-fd.png"] = files(under: input)[prefix + "c-fd.png"]
    #expect(files(under: input) == expected)
    #expect(expected.count == 6)

    // --overwrite redoes the inputs, still not the outputs.
    let forced = try CLIRunner.run(batch + ["--overwrite"])
    #expect(
      events(forced, input: input).files
        == ["a.jpg": "done", "day2/b.png": "done", "c.png": "done"], "\(forced.standardOutput)")
    #expect(Set(files(under: input).keys) == Set(expected.keys))
  }

  /// Only what the records describe is FrameDial's: a file of the user's named as an output would be is
  /// still an input (and the input whose output it would be is refused rather than written over it).
  @Test func aFileOfTheUsersNamedAsAnOutputIsStillAnInput() throws {
    let root = try CLIRunner.scratchFolder("output-inside-own")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"), toPath: input.appendingPathComponent("a.jpg").path)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("grace_hopper.jpg"),
      toPath: input.appendingPathComponent("a-fd.jpg").path)
    let run = try CLIRunner.run([
      "batch", input.path, "-o", input.path, "--allow-output-inside", "--name", "{stem}-fd.{ext}",
      "--json", "--size", "64",
    ])
    #expect(
      events(run, input: input).files == ["a.jpg": "failed", "a-fd.jpg": "done"],
      "\(run.standardOutput)")
    let original = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("grace_hopper.jpg")))
    #expect(try Data(contentsOf: input.appendingPathComponent("a-fd.jpg")) == original)
  }
}
