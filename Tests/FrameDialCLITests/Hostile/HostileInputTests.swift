import Foundation
import TestSupport
import Testing

@Suite struct HostileInputTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("hostile") }

  func snapshot(_ folder: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return result
  }

  func events(_ output: String) -> [[String: Any]] {
    output.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  @Test func failuresInParallelJobsKeepTheirOwnMessages() throws {
    // libvips has one error buffer per process: 60 files failing two at a time must each still get
    // the message they get when the batch runs one file at a time.
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let jpeg = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("rocket.jpg")))
    let png = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("coffee.png")))
    var seed: UInt64 = 0x5EED_F0E7
    for index in 0..<20 {
      try jpeg.prefix(jpeg.count / 2 + index * 16).write(
        to: input.appendingPathComponent("cut-\(index).jpg"))
      try png.prefix(png.count / 3 + index * 16).write(
        to: input.appendingPathComponent("cut-\(index).png"))
      let noise = (0..<3000).map { _ in
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: seed >> 56)
      }
      try Data(noise).write(to: input.appendingPathComponent("noise-\(index).png"))
    }
    func errors(jobs: Int) throws -> [String: String] {
      let output = root.appendingPathComponent("out-\(jobs)")
      let result = try CLIRunner.run([
        "batch", input.path, "-o", output.path, "--json", "--jobs", String(jobs), "--set", "ev=0.3",
      ])
      var byName: [String: String] = [:]
      for event in events(result.standardOutput) where event["event"] as? String == "file" {
        guard let path = event["path"] as? String else { continue }
        byName[URL(fileURLWithPath: path).lastPathComponent] = (event["error"] as? String ?? "")
          .replacingOccurrences(of: output.path, with: "OUT")
      }
      return byName
    }
    let alone = try errors(jobs: 1)
    let together = try errors(jobs: 2)
    #expect(alone.count == 60 && alone.values.allSatisfy { !$0.isEmpty })
    let differing = alone.keys.sorted().filter { together[$0] != alone[$0] }
    #expect(differing.isEmpty, "\(differing.prefix(3).map { "\($0): \(together[$0] ?? "none")" })")
  }

  @Test func everyFileGivesAnOutputOrOneClearErrorAndNothingIsLost() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    let output = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let expectations = try HostileCorpus.write(into: input)
    let before = try snapshot(input)
    let start = Date()
    let result = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--json", "--verbose", "--jobs", "2", "--set",
      "ev=0.3",
      "--set", "saturation=1.2",
    ])
    #expect(Date().timeIntervalSince(start) < 120)
    #expect(result.status == 1)
    let fileEvents = events(result.standardOutput).filter { $0["event"] as? String == "file" }
    #expect(fileEvents.count == expectations.count)
    for event in fileEvents {
      guard let path = event["path"] as? String else { continue }
      let name = URL(fileURLWithPath: path).lastPathComponent
      switch expectations[name] {
      case .output?:
        #expect(event["status"] as? String == "done", "\(name): \(event["error"] ?? "")")
        if let written = event["output"] as? String {
          let info = try CLIRunner.run(["info", written])
          #expect(info.status == 0, "\(name)")
          #expect(info.standardOutput.contains("orientation 1"), "\(name)")
        }
      case .failure(let reason)?:
        #expect(event["status"] as? String == "failed", "\(name)")
        let error = event["error"] as? String ?? ""
        #expect(!error.isEmpty && (reason.isEmpty || error.contains(reason)), "\(name): \(error)")
        #expect(!error.contains("\n"), "\(name): one line")
      case .ignored?:
        #expect(event["status"] as? String == "ignored", "\(name)")
      case nil:
        Issue.record("unexpected file \(name)")
      }
    }
    // The CMYK JPEG comes out as sRGB.
    let cmyk = try CLIRunner.run(["info", output.appendingPathComponent("cmyk.jpg").path])
    #expect(cmyk.standardOutput.contains("3 bands, uchar, srgb"))
    // 16-bit PNG stays 16-bit; grey stays grey.
    let sixteen = try CLIRunner.run(["info", output.appendingPathComponent("sixteen-bit.png").path])
    #expect(sixteen.standardOutput.contains("ushort"))
    let grey = try CLIRunner.run(["info", output.appendingPathComponent("grey-alpha.png").path])
    #expect(grey.standardOutput.contains("2 bands") && grey.standardOutput.contains("alpha"))
    #expect(try snapshot(input) == before)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: output.path).filter {
      ($0.hasPrefix(".") && $0 != ".framedial-records") || $0.contains("partial")
    }
    #expect(leftovers.isEmpty)
  }

  @Test func pixelLimitIsInclusive() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let output = root.appendingPathComponent("out.png").path
    let exact = try CLIRunner.run([
      "apply", CLIRunner.sample("coffee.png"), "-o", output, "--pixel-limit", "240000", "--set",
      "ev=1",
    ])
    #expect(exact.status == 0)
    let over = try CLIRunner.run([
      "apply", CLIRunner.sample("coffee.png"), "-o", root.appendingPathComponent("no.png").path,
      "--pixel-limit", "239999",
    ])
    #expect(over.status == 1)
    #expect(over.standardError.contains("600×400"))
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("no.png").path))
  }

  @Test func fileNameThatIsNotUTF8IsHandled() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("rocket.jpg")))
    // "caf\xE9.jpg": Latin-1, not valid UTF-8.
    let name: [UInt8] =
      Array(input.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8) + [0]
    let descriptor = name.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters -> Int32 in
        guard let path = characters.baseAddress else { return -1 }
        return open(path, O_CREAT | O_WRONLY, 0o644)
      }
    }
    #expect(descriptor >= 0)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("coffee.png"), toPath: input.appendingPathComponent("plain.png").path
    )
    let result = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("out").path,
    ])
    // Reported by name (no path can be built from it), and the rest of the batch runs.
    #expect(result.status == 1)
    #expect(result.standardError.contains("caf\u{FFFD}.jpg: the file name is not valid UTF-8"))
    #expect(result.standardOutput.contains("plain.png"))
    #expect(result.standardError.contains("1 done, 0 skipped, 1 failed"))
  }

  @Test func unreadableInputAndUnwritableOutputFolderAsAnOrdinaryUser() throws {
    // Root reads any file, so this test runs framedial as "nobody" when it can.
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), getuid() == 0 else {
      return
    }
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: root.path)
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: input.path)
    for name in ["open.jpg", "secret.jpg"] {
      try FileManager.default.copyItem(
        atPath: CLIRunner.sample("rocket.jpg"), toPath: input.appendingPathComponent(name).path)
      try FileManager.default.setAttributes(
        [.posixPermissions: name == "secret.jpg" ? 0o000 : 0o644],
        ofItemAtPath: input.appendingPathComponent(name).path)
    }
    let locked = root.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
    let output = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: output.path)
    func asNobody(_ arguments: [String]) throws -> CLIRunner.Result {
      try CLIRunner.run(
        ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.binary.path] + arguments,
        executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
    }
    let batch = try asNobody(["batch", input.path, "-o", output.path])
    #expect(batch.status == 1, "\(batch.standardError)")
    #expect(batch.standardError.contains("secret.jpg: permission denied"))
    #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("open.jpg").path))
    // An output folder the user cannot write in is one plain line before any image is read.
    let refused = try asNobody(["batch", input.path, "-o", locked.path])
    #expect(refused.status == 1)
    #expect(
      refused.standardError
        == "framedial batch: cannot write in the folder \(locked.path): permission denied\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)
    // The single-output commands say the same, not the encoder's message about a temporary file.
    let clip = root.appendingPathComponent("clip.mp4")
    try VideoClips.make(clip, VideoClips.testSource(size: "64x48", seconds: 0.2))
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: clip.path)
    let single: [(command: String, arguments: [String])] = [
      (
        "apply",
        ["apply", input.appendingPathComponent("open.jpg").path, "-o", "\(locked.path)/a.jpg"]
      ),
      ("lut", ["lut", "-o", "\(locked.path)/look.cube", "--set", "ev=0.5"]),
      (
        "video",
        ["video", clip.path, "-o", "\(locked.path)/v.mp4"]
      ),
    ]
    for (command, arguments) in single {
      let result = try asNobody(arguments)
      #expect(result.status == 1, "\(command): \(result.standardError)")
      #expect(
        result.standardError
          == "framedial \(command): cannot write in the folder \(locked.path): permission denied\n")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)
    // So is one whose path runs through a file.
    let file = root.appendingPathComponent("file")
    try Data().write(to: file)
    let through = try CLIRunner.run([
      "batch", input.path, "-o", file.appendingPathComponent("out").path,
    ])
    #expect(through.status == 1)
    #expect(
      through.standardError.hasSuffix("/file/out: not a directory\n"), "\(through.standardError)")
    #expect(through.standardError.split(separator: "\n").count == 1)
  }

  @Test func aWriteErrorFailsThatFileAndRemovesItsTemporary() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("astronaut.png"),
      toPath: input.appendingPathComponent("big.png").path)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"), toPath: input.appendingPathComponent("small.jpg").path
    )
    let output = root.appendingPathComponent("out")
    // Files may not grow past 200 KB: the 512×512 PNG output fails as on a full disk, the JPEG fits.
    let script = "trap '' XFSZ; ulimit -f 200; exec \"$0\" \"$@\""
    let result = try CLIRunner.run(
      [
        "-c", script, CLIRunner.binary.path, "batch", input.path, "-o", output.path, "--set",
        "ev=0.2",
      ],
      executable: URL(fileURLWithPath: "/bin/bash"))
    #expect(result.status == 1)
    // The input decodes: the output is blamed, not the input.
    #expect(result.standardError.contains("big.png: cannot render to \(output.path)/big.png: "))
    #expect(result.standardError.contains("1 done, 0 skipped, 1 failed"))
    // No temporary is left; the records say what made small.jpg.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        == [".framedial-records", "small.jpg"])
  }

  @Test func sigtermStopsTheBatchWithExit143() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for index in 0..<30 {
      try FileManager.default.copyItem(
        atPath: CLIRunner.sample("coffee.png"),
        toPath: input.appendingPathComponent("c\(index).png").path)
    }
    let result = try CLIRunner.runSignalled(
      [
        "batch", input.path, "-o", root.appendingPathComponent("out").path, "--format", "avif",
        "--jobs", "1",
      ], after: 0.8, signal: SIGTERM)
    #expect(result.status == 143)
    #expect(result.standardError.contains("interrupted"))
    #expect(result.standardError.contains(" done, "))
  }
}
