import Foundation
import FrameDial
import TestSupport
import Testing
import Vips

#if canImport(Glibc)
  import Glibc
#endif

/// Signals, a closed standard output, leftover temporary files, long names and names with control
/// characters: nothing is left behind, nothing crashes, nothing reaches the terminal raw.
@Suite struct HostileSignalTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("signals") }

  /// A JPEG of random pixels: detail survives every resize, so encoding the result (AVIF above all)
  /// takes long enough to be interrupted.
  func noise(_ url: URL, width: Int, height: Int) throws {
    var seed = UInt64(width * 7_919 + height)
    let pixels = (0..<width * height * 3).map { _ in
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: seed >> 56)
    }
    try Image.fromPixels(pixels, width: width, height: height, bands: 3)
      .write(to: url.path, format: .jpeg, options: SaveOptions(quality: 95))
  }

  /// The temporary files FrameDial left in `folder`.
  func partials(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasSuffix(".framedial-partial") }
  }

  /// The visible files in `folder`.
  func outputs(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { !$0.hasPrefix(".") }.sorted()
  }

  /// Polls `condition` every 5 ms for up to `seconds`; true once it holds.
  func wait(seconds: Double = 30, until condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.005)
    }
    return condition()
  }

  /// Waits for a temporary file in `folder`, then sends `signal`; false when the process ended first
  /// or none appeared in time (the process is then terminated).
  func signalOnceWriting(_ process: ShellStartedProcess, in folder: URL, _ signal: Int32) -> Bool {
    guard wait(until: { !partials(in: folder).isEmpty || !process.isRunning }), process.isRunning
    else {
      if process.isRunning { process.send(SIGKILL) }
      return false
    }
    process.send(signal)
    return true
  }

  func text(of url: URL) -> String {
    (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }

  /// A batch of `count` noise JPEGs of `width × height` under `root/in`, written one at a time as AVIF
  /// (slow enough to signal mid-image) into `root/out`; standard error goes to `root/errors`.
  func startAVIFBatch(in root: URL, count: Int, width: Int, height: Int) throws -> (
    process: ShellStartedProcess, output: URL, errors: URL
  ) {
    let input = root.appendingPathComponent("in")
    let output = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for index in 0..<count {
      try noise(input.appendingPathComponent("n\(index).jpg"), width: width, height: height)
    }
    let errors = root.appendingPathComponent("errors")
    let process = try ShellStartedProcess(
      ["batch", input.path, "-o", output.path, "--jobs", "1", "--format", "avif"],
      errors: errors.path)
    return (process, output, errors)
  }

  @Test func signalsDuringApplyPreviewAndSweepRemoveTheTemporaryFileAndExitAtOnce() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("noise.jpg")
    try noise(input, width: 1200, height: 900)
    let commands: [(name: String, arguments: [String])] = [
      ("apply", []), ("preview", []), ("sweep", ["--control", "ev"]),
    ]
    for (name, extra) in commands {
      for signal in [SIGINT, SIGTERM, SIGHUP] {
        let folder = root.appendingPathComponent("\(name)-\(signal)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let errors = root.appendingPathComponent("\(name)-\(signal).err")
        let process = try ShellStartedProcess(
          [name, input.path, "-o", folder.appendingPathComponent("out.avif").path] + extra,
          errors: errors.path)
        let signalled = signalOnceWriting(process, in: folder, signal)
        let ending = process.wait()
        let message = text(of: errors)
        #expect(signalled, "\(name): no temporary file appeared before it ended")
        #expect(ending == .exited(128 + signal), "\(name) \(signal): \(message)")
        #expect(message.contains("framedial \(name): stopped by SIG"), "\(message)")
        #expect(partials(in: folder).isEmpty, "\(name) \(signal) left a temporary file")
        #expect(outputs(in: folder).isEmpty, "\(name) \(signal) still wrote its output")
      }
    }
  }

  @Test func batchStopsInOrderWhenStandardOutputIsClosed() throws {
    // `framedial batch … --json | head -1`: the reader goes after the first line; the batch starts no
    // more images, finishes those in progress and exits 141, leaving no temporary file.
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    let output = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try noise(input.appendingPathComponent("a.jpg"), width: 800, height: 600)
    for index in 1..<12 {
      try FileManager.default.copyItem(
        at: input.appendingPathComponent("a.jpg"),
        to: input.appendingPathComponent("a\(index).jpg"))
    }
    let ends = try ShellStartedProcess.pipe()
    let errors = root.appendingPathComponent("errors")
    let process = try ShellStartedProcess(
      ["batch", input.path, "-o", output.path, "--json", "--jobs", "2", "--format", "png"],
      output: ends.write, errors: errors.path)
    close(ends.write)
    let reader = FileHandle(fileDescriptor: ends.read, closeOnDealloc: false)
    var first = Data()
    while !first.contains(UInt8(ascii: "\n")) {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      first.append(chunk)
    }
    close(ends.read)
    let ending = process.wait()
    let message = text(of: errors)
    #expect(String(decoding: first, as: UTF8.self).contains(#""status":"done""#))
    #expect(ending == .exited(141), "\(message)")
    #expect(message.contains("standard output was closed"))
    #expect(partials(in: output).isEmpty)
    #expect(outputs(in: output).count < 12)
  }

  @Test func closedStandardOutputNeitherKillsNorCrashes() throws {
    let ends = try ShellStartedProcess.pipe()
    close(ends.read)
    let process = try ShellStartedProcess(["devices"], output: ends.write, errors: "/dev/null")
    close(ends.write)
    #expect(process.wait() == .exited(141))
  }

  @Test func hangupLetsBatchFinishTheImageInProgress() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let (process, output, errors) = try startAVIFBatch(in: root, count: 3, width: 400, height: 300)
    let signalled = signalOnceWriting(process, in: output, SIGHUP)
    let ending = process.wait()
    let message = text(of: errors)
    #expect(signalled)
    #expect(ending == .exited(129), "\(message)")
    #expect(partials(in: output).isEmpty)
    #expect(outputs(in: output) == ["n0.avif"])
  }

  @Test func secondInterruptAbandonsTheImagesInProgressAndExitsAtOnce() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let (process, output, errors) = try startAVIFBatch(in: root, count: 2, width: 1200, height: 900)
    let signalled = signalOnceWriting(process, in: output, SIGINT)
    let warned = wait { text(of: errors).contains("interrupted") || !process.isRunning }
    if process.isRunning { process.send(SIGINT) }
    let ending = process.wait()
    let message = text(of: errors)
    #expect(signalled && warned)
    #expect(ending == .exited(130), "\(message)")
    #expect(message.contains("stopped by SIGINT"), "\(message)")
    #expect(partials(in: output).isEmpty)
    #expect(outputs(in: output).isEmpty, "the image in progress was finished, not abandoned")
  }

  @Test func ctrlCWhilePlanningAHugeFolderStopsThePlanning() throws {
    // 30,000 empty .jpg files in 150 folders take a few seconds to plan (each is looked at, its
    // output named and checked); Ctrl-C lands while that goes on.
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    for folder in 0..<150 {
      let sub = input.appendingPathComponent("d\(folder)")
      try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
      for file in 0..<200 {
        _ = FileManager.default.createFile(
          atPath: sub.appendingPathComponent("f\(file).jpg").path, contents: nil)
      }
    }
    let errors = root.appendingPathComponent("errors")
    let output = root.appendingPathComponent("out")
    let process = try ShellStartedProcess(
      ["batch", input.path, "-o", output.path], errors: errors.path)
    Thread.sleep(forTimeInterval: 0.5)
    process.send(SIGINT)
    let ending = process.wait()
    let message = text(of: errors)
    #expect(ending == .exited(130), "\(message)")
    #expect(message.contains("interrupted while looking for images"), "\(message)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test func staleTemporaryFilesOfDeadProcessesAreRemovedLiveOnesKept() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // A process that has exited: its ID names no process (until reused, which only keeps the file).
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let dead = ended.processIdentifier
    let live = ProcessInfo.processInfo.processIdentifier
    let host = AtomicFile.hostTag
    // Another machine writing into a shared folder: its process IDs mean nothing here.
    let elsewhere = host == "00000000" ? "00000001" : "00000000"
    let names = [
      ".photo.png.\(dead)-\(host).0123abcd.framedial-partial",
      ".other.png.\(dead)-\(host).89abcdef.framedial-partial",
      ".photo.png.\(live)-\(host).0123abcd.framedial-partial",
      ".photo.png.\(dead)-\(elsewhere).0123abcd.framedial-partial",
      ".photo.png.0123abcd.framedial-partial",
    ]
    for name in names {
      try Data().write(to: root.appendingPathComponent(name))
    }
    let result = try CLIRunner.run([
      "apply", CLIRunner.sample("rocket.jpg"), "-o", root.appendingPathComponent("photo.png").path,
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      partials(in: root).sorted()
        == [
          ".photo.png.\(live)-\(host).0123abcd.framedial-partial",
          ".photo.png.\(dead)-\(elsewhere).0123abcd.framedial-partial",
          ".photo.png.0123abcd.framedial-partial",
        ]
        .sorted())
    #expect(outputs(in: root) == ["photo.png"])
  }

  @Test func outputNamesUpTo255BytesAreWritten() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // 250 bytes of two-byte characters: the temporary name must be cut between characters.
    let name = String(repeating: "é", count: 123) + ".png"
    #expect(name.utf8.count == 250)
    let apply = try CLIRunner.run([
      "apply", CLIRunner.sample("rocket.jpg"), "-o", root.appendingPathComponent(name).path,
    ])
    #expect(apply.status == 0, "\(apply.standardError)")
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let stem = String(repeating: "a", count: 251)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"),
      toPath: input.appendingPathComponent(stem + ".jpg").path)
    let batch = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("out").path, "--format", "png",
    ])
    #expect(batch.status == 0, "\(batch.standardError)")
    #expect(outputs(in: root.appendingPathComponent("out")) == [stem + ".png"])
    #expect(outputs(in: root).contains(name))
    #expect(partials(in: root).isEmpty)
  }

  @Test func controlCharactersInFileNamesArePrintedEscaped() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let name = "x\u{1B}[2J\u{1B}]0;pwned\u{07}\nline\u{9B}.jpg"
    let shown = #"x\u{1B}[2J\u{1B}]0;pwned\u{7}\u{A}line\u{9B}.jpg"#
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"), toPath: input.appendingPathComponent(name).path)
    func isClean(_ text: String) -> Bool {
      !text.unicodeScalars.contains {
        ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
      }
    }

    let batch = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("out").path, "--format", "png",
    ])
    #expect(batch.status == 0)
    #expect(isClean(batch.standardOutput) && isClean(batch.standardError))
    let lines = batch.standardOutput.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("done    \(input.path)/\(shown) → ") == true, "\(lines)")

    let apply = try CLIRunner.run([
      "apply", input.appendingPathComponent(name).path, "-o",
      root.appendingPathComponent("o\u{1B}[31m.png").path,
    ])
    #expect(apply.status == 0)
    #expect(isClean(apply.standardOutput))
    #expect(
      apply.standardOutput.contains(shown) && apply.standardOutput.contains(#"o\u{1B}[31m.png"#))
    #expect(apply.standardOutput.split(separator: "\n").count == 1)

    let missing = try CLIRunner.run([
      "apply", input.appendingPathComponent("gone\u{1B}[8m\n.jpg").path, "-o",
      root.appendingPathComponent("gone.png").path,
    ])
    #expect(missing.status == 1)
    #expect(isClean(missing.standardError))
    #expect(missing.standardError.contains(#"gone\u{1B}[8m\u{A}.jpg"#), "\(missing.standardError)")
    #expect(missing.standardError.split(separator: "\n").count == 1)

    // JSON keeps its own escaping: the path decodes back to the real name.
    let json = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("json").path, "--format", "png",
      "--json",
    ])
    let first = json.standardOutput.split(separator: "\n").first.map { Data($0.utf8) } ?? Data()
    let event = try JSONSerialization.jsonObject(with: first) as? [String: Any]
    #expect(event?["path"] as? String == input.appendingPathComponent(name).path)
  }
}
