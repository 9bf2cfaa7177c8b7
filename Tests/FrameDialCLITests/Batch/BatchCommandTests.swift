import Foundation
import TestSupport
import Testing

@Suite struct BatchCommandTests {
  /// A folder of inputs: good JPEG, PNG and HEIC files (one nested), a corrupt JPEG, an empty file, a text
  /// file named .jpg, a plain text file and a hidden image.
  func mixedFolder() throws -> URL {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-batch-\(UUID().uuidString)")
    let input = root.appendingPathComponent("in")
    let manager = FileManager.default
    try manager.createDirectory(
      at: input.appendingPathComponent("nested/deeper"), withIntermediateDirectories: true)
    try manager.createDirectory(
      at: input.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
    func copy(_ sample: String, _ target: String) throws {
      try manager.copyItem(
        atPath: CLIRunner.sample(sample), toPath: input.appendingPathComponent(target).path)
    }
    try copy("rocket.jpg", "rocket.jpg")
    try copy("coffee.png", "coffee.png")
    try copy("coffee.heic", "nested/coffee.heic")
    try copy("rocket_exif_rotated.jpg", "nested/deeper/turned.jpg")
    try copy("chelsea.png", ".hidden/cat.png")
    let rocket = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("rocket.jpg")))
    try rocket.prefix(rocket.count / 3).write(to: input.appendingPathComponent("corrupt.jpg"))
    try Data().write(to: input.appendingPathComponent("empty.jpg"))
    try Data("not a photo\n".utf8).write(to: input.appendingPathComponent("text.jpg"))
    try Data("notes\n".utf8).write(to: input.appendingPathComponent("notes.txt"))
    return root
  }

  /// The files under `folder`, without hidden ones (the batch's records).
  func files(under folder: URL) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    return enumerator.compactMap { $0 as? String }.filter { !$0.hasPrefix(".") }.filter {
      var isFolder: ObjCBool = false
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent($0).path, isDirectory: &isFolder)
      return !isFolder.boolValue
    }.sorted()
  }

  func snapshot(_ folder: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for file in files(under: folder) {
      result[file] = try Data(contentsOf: folder.appendingPathComponent(file))
    }
    return result
  }

  @Test func mixedFolderWritesTheGoodOnesReportsTheBadOnesAndKeepsOriginals() throws {
    let root = try mixedFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    let output = root.appendingPathComponent("out")
    let before = try snapshot(input)
    let result = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--preset", "vivid", "--jobs", "2",
    ])
    #expect(result.status == 1)
    #expect(
      files(under: output) == [
        "coffee.png", "nested/coffee.heic", "nested/deeper/turned.jpg", "rocket.jpg",
      ])
    for bad in ["corrupt.jpg", "empty.jpg", "text.jpg"] {
      #expect(
        result.standardError.contains("failed  \(input.appendingPathComponent(bad).path): "),
        "\(bad)")
    }
    #expect(result.standardError.contains("empty.jpg: empty file"))
    #expect(result.standardError.contains("4 done, 0 skipped, 3 failed"))
    #expect(try snapshot(input) == before)
    // The turned photo is written upright.
    let info = try CLIRunner.run([
      "info", output.appendingPathComponent("nested/deeper/turned.jpg").path,
    ])
    #expect(info.standardOutput.contains("640×427"))
    #expect(info.standardOutput.contains("orientation 1"))

    let rerun = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--preset", "vivid", "--json",
    ])
    let events = rerun.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let statuses = events.filter { $0["event"] as? String == "file" }.compactMap {
      $0["status"] as? String
    }
    #expect(statuses.filter { $0 == "skipped" }.count == 4)
    #expect(statuses.filter { $0 == "failed" }.count == 3)
    let summary = events.last
    #expect(summary?["event"] as? String == "summary")
    #expect(summary?["done"] as? Int == 0)
    #expect(summary?["skipped"] as? Int == 4)
    let failedEvent = events.first { $0["status"] as? String == "failed" }
    #expect((failedEvent?["error"] as? String)?.isEmpty == false)
    #expect(failedEvent?["milliseconds"] is Double)
  }

  @Test func aPhoneFolderWithVideosAndSidecarsJustWorks() throws {
    // An iPhone folder: a photo with its video and edit sidecar, a screenshot, and two spellings of JPEG.
    let root = try CLIRunner.scratchFolder("phone")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("DCIM")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for (sample, name) in [
      ("rocket.jpg", "IMG_0001.JPG"), ("coffee.png", "screenshot.PNG"), ("rocket.jpg", "b.jpeg"),
      ("rocket.jpg", "b.JPG"),
    ] {
      try FileManager.default.copyItem(
        atPath: CLIRunner.sample(sample), toPath: input.appendingPathComponent(name).path)
    }
    try Data(#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#.utf8).write(
      to: input.appendingPathComponent("IMG_0001.AAE"))
    try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(
      to: input.appendingPathComponent("IMG_0001.MOV"))
    let output = root.appendingPathComponent("out")
    let result = try CLIRunner.run(["batch", input.path, "-o", output.path, "--set", "ev=0.3"])
    #expect(result.status == 0, "\(result.standardError)")
    // Names keep their spelling; b.jpeg and b.JPG no longer collide; the sidecar claims nothing.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        == [".framedial-records", "IMG_0001.JPG", "b.JPG", "b.jpeg", "screenshot.PNG"])
    #expect(
      result.standardError.contains("4 done, 0 skipped, 0 failed, 2 ignored (1 .aae, 1 .mov)"))
    #expect(!result.standardOutput.contains("IMG_0001.MOV"))
    // --verbose lists what was passed over; JSON counts it.
    let verbose = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--verbose", "--dry-run",
    ])
    #expect(verbose.standardOutput.contains("ignored \(input.path)/IMG_0001.AAE (not an image)"))
    #expect(verbose.standardOutput.contains("ignored \(input.path)/IMG_0001.MOV (not an image)"))
    let json = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--json", "--set", "ev=0.3",
    ])
    let summary = json.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
    #expect(summary.contains(#""ignored":2"#) && summary.contains(#""skipped":4"#), "\(summary)")
    #expect(summary.contains(#""ignoredByExtension":{".aae":1,".mov":1}"#), "\(summary)")
  }

  @Test func dryRunWritesNothing() throws {
    let root = try mixedFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let output = root.appendingPathComponent("out")
    let result = try CLIRunner.run([
      "batch", root.appendingPathComponent("in").path, "-o", output.path, "--dry-run", "--format",
      "webp",
    ])
    #expect(result.standardOutput.contains("would write \(output.path)/rocket.webp"))
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test func shardsCoverEveryInputExactlyOnce() throws {
    let root = try mixedFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    var seen: [String] = []
    for part in 1...3 {
      let result = try CLIRunner.run([
        "batch", root.appendingPathComponent("in").path, "-o",
        root.appendingPathComponent("out").path,
        "--dry-run", "--json", "--shard", "\(part)/3",
      ])
      seen += result.standardOutput.split(separator: "\n").compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"]
          as? String
      }
    }
    #expect(seen.count == 7)
    #expect(Set(seen).count == 7)
  }

  @Test func outputAmongInputsIsRefusedUnlessAsked() throws {
    let root = try mixedFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    let inside = input.appendingPathComponent("processed")
    let refused = try CLIRunner.run(["batch", input.path, "-o", inside.path])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("outputs would mix with inputs"))
    #expect(!FileManager.default.fileExists(atPath: inside.path))
    let accepted = try CLIRunner.run([
      "batch", input.path, "-o", inside.path, "--allow-output-inside", "--format", "png",
    ])
    #expect(accepted.status == 1)  // the three bad files
    #expect(files(under: inside).count == 4)
    // A second run neither walks into the outputs nor redoes them.
    let again = try CLIRunner.run([
      "batch", input.path, "-o", inside.path, "--allow-output-inside", "--format", "png",
    ])
    #expect(again.standardError.contains("0 done, 4 skipped, 3 failed"))
  }

  @Test func namesFormatsAndModificationTimes() throws {
    let root = try mixedFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    let output = root.appendingPathComponent("out")
    let old = Date(timeIntervalSince1970: 1_500_000_000)
    try FileManager.default.setAttributes(
      [.modificationDate: old], ofItemAtPath: input.appendingPathComponent("rocket.jpg").path)
    _ = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--no-recursive", "--format", "png", "--name",
      "{stem}-edited.{ext}",
      "--keep-time", "--set", "ev=0.3",
    ])
    #expect(files(under: output) == ["coffee-edited.png", "rocket-edited.png"])
    let written = try FileManager.default.attributesOfItem(
      atPath: output.appendingPathComponent("rocket-edited.png").path)
    #expect((written[.modificationDate] as? Date) == old)
  }

  @Test func collidingOutputsAreReportedNotOverwritten() throws {
    let root = try mixedFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    // rocket.jpg is already there; rocket.png would land on the same output as PNG.
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("coffee.png"),
      toPath: input.appendingPathComponent("rocket.png").path)
    let output = root.appendingPathComponent("out")
    let result = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--format", "png", "--no-recursive",
    ])
    #expect(result.status == 1)
    #expect(result.standardError.contains("is already the output of"))
    #expect(files(under: output) == ["coffee.png", "rocket.png"])
    // The message suggests a --name template, and the template works.
    let suggested = try #require(
      result.standardError.firstMatch(of: #/--name '([^']+)' gives every file its own output/#))
    let template = String(suggested.output.1)
    #expect(template == "{name}.{ext}")
    let renamed = root.appendingPathComponent("renamed")
    let fixed = try CLIRunner.run([
      "batch", input.path, "-o", renamed.path, "--format", "png", "--no-recursive", "--name",
      template,
    ])
    #expect(fixed.standardError.contains("3 done, 0 skipped, 3 failed"), "\(fixed.standardError)")
    #expect(!fixed.standardError.contains("already the output"))
    #expect(
      files(under: renamed) == ["coffee.png.png", "rocket.jpg.png", "rocket.png.png"])
    // A template of the user's own keeps its shape.
    let own = try CLIRunner.run([
      "batch", input.path, "-o", renamed.path, "--format", "png", "--no-recursive", "--name",
      "{stem}-small.{ext}", "--dry-run",
    ])
    #expect(
      own.standardError.contains("--name '{name}-small.{ext}' gives every file its own output"))
    // Two files of the same name given from different folders: no template can tell them apart.
    let twin = root.appendingPathComponent("twin")
    try FileManager.default.createDirectory(at: twin, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: input.appendingPathComponent("rocket.jpg"), to: twin.appendingPathComponent("rocket.jpg"))
    let twins = try CLIRunner.run([
      "batch", input.appendingPathComponent("rocket.jpg").path,
      twin.appendingPathComponent("rocket.jpg").path, "-o", root.appendingPathComponent("t").path,
    ])
    #expect(twins.status == 1)
    #expect(twins.standardError.contains("rename one of them, or process them in separate runs"))
  }

  @Test func collisionsAreFoundAcrossShards() throws {
    let root = try CLIRunner.scratchFolder("collide-shards")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    // Eight pairs that all meet as PNG; each pair's two files may fall in different parts.
    for index in 0..<8 {
      for ext in ["jpg", "png"] {
        try FileManager.default.copyItem(
          atPath: CLIRunner.sample(ext == "jpg" ? "rocket.jpg" : "coffee.png"),
          toPath: input.appendingPathComponent("p\(index).\(ext)").path)
      }
    }
    var failed = 0
    var planned = 0
    for part in 1...2 {
      let result = try CLIRunner.run([
        "batch", input.path, "-o", root.appendingPathComponent("out").path, "--format", "png",
        "--shard", "\(part)/2", "--dry-run", "--json",
      ])
      failed += result.standardOutput.components(separatedBy: #""status":"failed""#).count - 1
      planned += result.standardOutput.components(separatedBy: #""status":"planned""#).count - 1
    }
    #expect(failed == 8)
    #expect(planned == 8)
  }

  @Test func stateFileErrorsNameTheFileLineAndColumn() throws {
    let root = try CLIRunner.scratchFolder("state-errors")
    defer { try? FileManager.default.removeItem(at: root) }
    let look = root.appendingPathComponent("look.json")
    try Data("{\n  \"exposureBias\": 0.5,\n  \"zoom\": 2\n  \"contrast\": 1.2\n}\n".utf8).write(
      to: look)
    let output = root.appendingPathComponent("out").path
    let syntax = try CLIRunner.run(["batch", root.path, "-o", output, "--state", look.path])
    #expect(syntax.status == 2)
    #expect(
      syntax.standardError.hasPrefix(
        "framedial batch: \(look.path):4:3: The control state is not a valid JSON object: "
          + "expected ',' or '}' after the value of \"zoom\", found '\"'.\n"),
      "\(syntax.standardError)")
    try Data("{\n  \"zoom\": 2,\n  \"filter\": \"sepiaa\"\n}\n".utf8).write(to: look)
    let value = try CLIRunner.run(["batch", root.path, "-o", output, "--state", look.path])
    #expect(value.status == 2)
    #expect(
      value.standardError.hasPrefix("framedial batch: \(look.path):3:3: The value \"sepiaa\""),
      "\(value.standardError)")
    let missing = root.appendingPathComponent("missing.json").path
    let none = try CLIRunner.run(["batch", root.path, "-o", output, "--state", missing])
    #expect(none.status == 2)
    #expect(none.standardError.hasPrefix("framedial batch: In \(missing): "))
    #expect(none.standardError.contains("no such file"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func usageErrorsExitTwo() throws {
    #expect(try CLIRunner.run(["batch"]).status == 2)
    #expect(try CLIRunner.run(["batch", "/tmp"]).status == 2)
    #expect(try CLIRunner.run(["batch", "/tmp", "-o", "/tmp/x", "--jobs", "0"]).status == 2)
    #expect(try CLIRunner.run(["batch", "/tmp", "-o", "/tmp/x", "--shard", "3/2"]).status == 2)
    #expect(
      try CLIRunner.run(["batch", "/tmp", "-o", "/tmp/x", "--name", "{stem}/{ext}"]).status == 2)
    let preset = try CLIRunner.run(["batch", "/tmp", "-o", "/tmp/x", "--preset", "sparkly"])
    #expect(preset.status == 2)
    #expect(preset.standardError.contains("sparkly"))
    #expect(preset.standardError.contains("vivid"))
  }

  @Test func interruptionFinishesRunningFilesAndExits130() throws {
    let root = try mixedFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    // Many inputs, so the batch is still running when the signal arrives.
    for index in 0..<40 {
      try FileManager.default.copyItem(
        atPath: CLIRunner.sample("astronaut.png"),
        toPath: input.appendingPathComponent("copy\(index).png").path)
    }
    let output = root.appendingPathComponent("out")
    let result = try CLIRunner.runSignalled(
      ["batch", input.path, "-o", output.path, "--jobs", "1", "--format", "avif"], after: 1.0,
      signal: SIGINT)
    #expect(result.status == 130)
    #expect(result.standardError.contains("interrupted"))
    let written = files(under: output)
    #expect(written.count < 44)
    #expect(!written.contains { $0.hasSuffix(".framedial-partial") })
    // A rerun skips what was written and completes the rest.
    let resumed = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--jobs", "2", "--format", "avif",
    ])
    #expect(resumed.status == 1)  // the three bad files
    #expect(
      resumed.standardError.contains(
        "\(44 - written.count) done, \(written.count) skipped, 3 failed"))
    #expect(files(under: output).count == 44)
  }
}
