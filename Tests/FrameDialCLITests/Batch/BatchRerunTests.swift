import Foundation
import TestSupport
import Testing
import Vips

#if canImport(Glibc)
  import Glibc
#endif

/// Reruns into the same output folder: same settings skip, other settings redo and say so, outputs no
/// record describes are skipped and counted, `--overwrite` forces; also with shards at once and after
/// an interruption.
@Suite struct BatchRerunTests {
  /// `count` small generated images (gradients, each different) under `root/in`, half of them nested.
  func photos(_ count: Int, in root: URL, width: Int = 96, height: Int = 64) throws -> URL {
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(
      at: input.appendingPathComponent("day2"), withIntermediateDirectories: true)
    for index in 0..<count {
      let pixels = (0..<width * height * 3).map { UInt8(truncatingIfNeeded: $0 &* (index + 3)) }
      let name = index % 2 == 0 ? "IMG_\(index).jpg" : "day2/IMG_\(index).png"
      try Image.fromPixels(pixels, width: width, height: height, bands: 3)
        .write(
          to: input.appendingPathComponent(name).path,
          format: index % 2 == 0 ? .jpeg : .png, options: SaveOptions(quality: 95))
    }
    return input
  }

  func contents(of folder: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let names = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
    for name in names ?? [] where !name.hasPrefix(".") {
      var isFolder: ObjCBool = false
      let path = folder.appendingPathComponent(name).path
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
        result[name] = try Data(contentsOf: URL(fileURLWithPath: path))
      }
    }
    return result
  }

  /// The JSON objects a `--json` run printed: the file events and the summary.
  func events(_ result: CLIRunner.Result) -> (files: [[String: Any]], summary: [String: Any]) {
    let objects = result.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    return (
      objects.filter { $0["event"] as? String == "file" },
      objects.last { $0["event"] as? String == "summary" } ?? [:]
    )
  }

  @Test func otherSettingsRedoAndSaySoSameSettingsSkipOverwriteForces() throws {
    let root = try CLIRunner.scratchFolder("rerun")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try photos(4, in: root)
    let output = root.appendingPathComponent("out")
    let batch = ["batch", input.path, "-o", output.path]

    let first = try CLIRunner.run(batch + ["--preset", "vivid"])
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardError.contains("4 done, 0 skipped, 0 failed"))
    let vivid = try contents(of: output)
    #expect(vivid.count == 4)

    // The same settings (a resumed batch): nothing is written.
    let same = try CLIRunner.run(batch + ["--preset", "vivid"])
    #expect(same.standardError.contains("0 done, 4 skipped, 0 failed"), "\(same.standardError)")
    #expect(same.standardOutput.contains("exists, made with these settings"))
    #expect(try contents(of: output) == vivid)

    // Another preset: every output is rendered again, and each line and the summary say why.
    let noir = try CLIRunner.run(batch + ["--preset", "noir", "--json"])
    #expect(noir.status == 0)
    let (files, summary) = events(noir)
    #expect(files.count == 4)
    #expect(files.allSatisfy { $0["status"] as? String == "redone" })
    #expect(files.allSatisfy { $0["reason"] as? String == "other-settings" })
    #expect(summary["redone"] as? Int == 4)
    #expect(summary["done"] as? Int == 0)
    #expect(summary["skipped"] as? Int == 0)
    let mono = try contents(of: output)
    #expect(Set(mono.keys) == Set(vivid.keys))
    for (name, data) in mono { #expect(data != vivid[name], "\(name)") }

    // An output option alone (quality) is other settings too; plain lines say "redone".
    let quality = try CLIRunner.run(batch + ["--preset", "noir", "--quality", "40"])
    #expect(
      quality.standardError.contains("0 done, 4 redone (made with other settings), 0 skipped"))
    #expect(quality.standardOutput.contains("redone  \(input.path)/IMG_0.jpg → "))
    #expect(quality.standardOutput.contains("(made with other settings; "))
    // The pixel limit and the number of jobs are not settings.
    let paced = try CLIRunner.run(
      batch + ["--preset", "noir", "--quality", "40", "--jobs", "1", "--pixel-limit", "90000"])
    #expect(paced.standardError.contains("0 done, 4 skipped"), "\(paced.standardError)")

    // A dry run says what would be redone and writes nothing.
    let before = try contents(of: output)
    let dry = try CLIRunner.run(batch + ["--dry-run"])
    #expect(dry.standardOutput.contains("(from \(input.path)/IMG_0.jpg, made with other settings)"))
    #expect(try contents(of: output) == before)

    // --overwrite renders whatever is there.
    let forced = try CLIRunner.run(batch + ["--preset", "noir", "--quality", "40", "--overwrite"])
    #expect(forced.standardError.contains("4 done, 0 skipped"), "\(forced.standardError)")
  }

  @Test func outputsNoRecordDescribesAreSkippedCountedAndRedoneOnlyWithOverwrite() throws {
    let root = try CLIRunner.scratchFolder("rerun-unknown")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try photos(2, in: root)
    let output = root.appendingPathComponent("out")
    let batch = ["batch", input.path, "-o", output.path, "--set", "ev=0.5"]
    // An output made by hand (here: a copy of the input) before FrameDial ever ran.
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let byHand = output.appendingPathComponent("IMG_0.jpg")
    try FileManager.default.copyItem(at: input.appendingPathComponent("IMG_0.jpg"), to: byHand)
    let original = try Data(contentsOf: byHand)

    let first = try CLIRunner.run(batch)
    #expect(first.status == 0)
    #expect(first.standardError.contains("1 done, 1 skipped, 0 failed"), "\(first.standardError)")
    #expect(
      first.standardError.contains(
        "1 skipped output has no record of the settings that made it (made by hand or by an older "
          + "FrameDial): --overwrite redoes it"))
    #expect(
      first.standardOutput.contains(
        "skipped \(input.path)/IMG_0.jpg (\(byHand.path) exists, with no record of the settings "
          + "that made it; --overwrite replaces it)"))
    #expect(try Data(contentsOf: byHand) == original)
    // Other settings do not make an unknown output known: it stays untouched.
    let json = try CLIRunner.run(batch + ["--set", "ev=-0.5", "--json"])
    let (files, summary) = events(json)
    let unknown = files.first { ($0["path"] as? String)?.hasSuffix("IMG_0.jpg") == true }
    #expect(unknown?["status"] as? String == "skipped")
    #expect(unknown?["reason"] as? String == "no-record")
    #expect(summary["unrecorded"] as? Int == 1)
    #expect(summary["redone"] as? Int == 1)
    #expect(try Data(contentsOf: byHand) == original)

    // An output FrameDial wrote, then edited by hand, is no longer known either.
    let nested = output.appendingPathComponent("day2/IMG_1.png")
    try Data(contentsOf: nested).write(to: nested)
    let edited = try CLIRunner.run(batch + ["--set", "ev=-0.5"])
    #expect(edited.standardError.contains("0 done, 2 skipped"), "\(edited.standardError)")

    let forced = try CLIRunner.run(batch + ["--overwrite"])
    #expect(forced.standardError.contains("2 done, 0 skipped"))
    #expect(try Data(contentsOf: byHand) != original)
    let again = try CLIRunner.run(batch)
    #expect(
      again.standardError.contains("0 done, 2 skipped, 0 failed in"), "\(again.standardError)")
    #expect(!again.standardError.contains("no record"))
  }

  @Test func shardsRunningAtOnceRecordEveryOutput() throws {
    let root = try CLIRunner.scratchFolder("rerun-shards")
    defer { try? FileManager.default.removeItem(at: root) }
    let count = 24
    let input = try photos(count, in: root)
    let output = root.appendingPathComponent("out")
    /// Starts the three shards of one batch at the same moment and returns their summaries.
    func shards(_ settings: [String]) throws -> [[String: Any]] {
      let started = try (1...3).map { part in
        let result = root.appendingPathComponent("shard\(part).json")
        let descriptor = open(result.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        return (
          try ShellStartedProcess(
            [
              "batch", input.path, "-o", output.path, "--shard", "\(part)/3", "--json", "--jobs",
              "2",
            ]
              + settings, output: descriptor, errors: root.appendingPathComponent("errors").path),
          result
        )
      }
      return started.map { process, result in
        #expect(process.wait() == .exited(0))
        let text = (try? String(contentsOf: result, encoding: .utf8)) ?? ""
        return events(CLIRunner.Result(status: 0, standardOutput: text, standardError: "")).summary
      }
    }
    func total(_ key: String, _ summaries: [[String: Any]]) -> Int {
      summaries.reduce(0) { $0 + ($1[key] as? Int ?? 0) }
    }
    let first = try shards(["--preset", "vivid"])
    #expect(total("done", first) == count)
    let vivid = try contents(of: output)
    let whole = try CLIRunner.run(["batch", input.path, "-o", output.path, "--preset", "vivid"])
    #expect(whole.standardError.contains("0 done, \(count) skipped, 0 failed"))

    let second = try shards(["--preset", "noir"])
    #expect(total("redone", second) == count)
    #expect(total("unrecorded", second) == 0)
    let noir = try contents(of: output)
    #expect(noir.keys.sorted() == vivid.keys.sorted())
    #expect(noir.allSatisfy { vivid[$0.key] != $0.value })
    let third = try shards(["--preset", "noir"])
    #expect(total("skipped", third) == count)
    #expect(total("redone", third) + total("done", third) == 0)
    // Ended runs' records are merged: one file per process that ran at once at most.
    let records = try FileManager.default.contentsOfDirectory(
      atPath: output.appendingPathComponent(".framedial-records").path)
    #expect(records.filter { $0.hasSuffix(".jsonl") }.count <= 3, "\(records)")
  }

  @Test func anInterruptedRunThenARerunWithOtherSettingsRedoesWhatWasWritten() throws {
    let root = try CLIRunner.scratchFolder("rerun-interrupted")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try photos(16, in: root, width: 900, height: 700)
    let output = root.appendingPathComponent("out")
    let errors = root.appendingPathComponent("errors")
    let process = try ShellStartedProcess(
      ["batch", input.path, "-o", output.path, "--jobs", "1", "--format", "avif", "--set", "ev=1"],
      errors: errors.path)
    // Interrupt once the first outputs are in place.
    let end = Date().addingTimeInterval(60)
    while Date() < end, process.isRunning, try contents(of: output).count < 2 {
      Thread.sleep(forTimeInterval: 0.005)
    }
    process.send(SIGINT)
    #expect(process.wait() == .exited(130))
    let written = try contents(of: output).count
    #expect(written >= 2 && written < 16, "\(written)")

    let rerun = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--format", "avif", "--set", "ev=-1",
    ])
    #expect(
      rerun.standardError.contains(
        "\(16 - written) done, \(written) redone (made with other settings), 0 skipped, 0 failed"),
      "\(rerun.standardError)")
    let resumed = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--format", "avif", "--set", "ev=-1",
    ])
    #expect(resumed.standardError.contains("0 done, 16 skipped, 0 failed"))
  }
}
