import Foundation
import Synchronization
import TestSupport
import Testing

/// Paths that lead somewhere else: links onto originals, FIFOs and devices, loops of folder links,
/// folders that cannot be listed or created. Every run is killed if it outlives a few seconds, so a hang
/// fails the test instead of stalling the suite.
@Suite struct HostilePathTests {
  let root: URL
  let rocket = CLIRunner.sample("rocket.jpg")

  init() throws {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-paths-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

  func folder(_ relative: String) throws -> String {
    try FileManager.default.createDirectory(
      atPath: path(relative), withIntermediateDirectories: true)
    return path(relative)
  }

  func copyRocket(to relative: String) throws -> String {
    try FileManager.default.copyItem(atPath: rocket, toPath: path(relative))
    return path(relative)
  }

  func link(_ relative: String, to destination: String) throws {
    try FileManager.default.createSymbolicLink(
      atPath: path(relative), withDestinationPath: destination)
  }

  func fifo(_ relative: String) throws -> String {
    #expect(mkfifo(path(relative), 0o644) == 0)
    return path(relative)
  }

  func fileType(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// Runs `framedial arguments…` (or `executable`), killing it after `seconds`.
  func run(_ arguments: [String], within seconds: Double = 10, executable: URL? = nil) throws
    -> (result: CLIRunner.Result, timedOut: Bool)
  {
    let process = Process()
    process.executableURL = executable ?? CLIRunner.binary
    process.arguments = arguments
    let outPath = path(".stdout-\(UUID().uuidString)")
    let errPath = path(".stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let killed = Atomic(false)
    let identifier = process.processIdentifier
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      if finished.wait(timeout: .now() + seconds) == .timedOut {
        killed.store(true, ordering: .sequentiallyConsistent)
        kill(identifier, SIGKILL)
      }
    }
    process.waitUntilExit()
    finished.signal()
    try out.close()
    try err.close()
    let result = CLIRunner.Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: bytes(outPath) ?? Data(), as: UTF8.self),
      standardError: String(decoding: bytes(errPath) ?? Data(), as: UTF8.self))
    try? FileManager.default.removeItem(atPath: outPath)
    try? FileManager.default.removeItem(atPath: errPath)
    return (result, killed.load(ordering: .sequentiallyConsistent))
  }

  /// The `file` events of a `--json` batch, by input file name: its status and error.
  func events(_ output: String) -> [String: (status: String, error: String)] {
    var byName: [String: (String, String)] = [:]
    for line in output.split(separator: "\n") {
      guard
        let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        event["event"] as? String == "file", let path = event["path"] as? String
      else { continue }
      byName[URL(fileURLWithPath: path).lastPathComponent] = (
        event["status"] as? String ?? "", event["error"] as? String ?? ""
      )
    }
    return byName
  }

  @Test func anOriginalIsNeverWrittenOverThroughALink() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    let original = try copyRocket(to: "f1.jpg")
    let before = bytes(original)
    try link("l1.jpg", to: "f1.jpg")
    try FileManager.default.linkItem(atPath: original, toPath: path("hard.jpg"))
    let attempts: [[String]] = [
      ["apply", path("l1.jpg"), "-o", original, "--set", "ev=0.5"],
      ["apply", original, "-o", path("l1.jpg"), "--set", "ev=0.5"],
      ["apply", original, "-o", path("hard.jpg"), "--set", "ev=0.5"],
      ["sweep", path("l1.jpg"), "-o", original, "--control", "ev"],
      ["preview", path("l1.jpg"), "-o", original],
    ]
    for arguments in attempts {
      let (result, timedOut) = try run(arguments)
      #expect(!timedOut)
      #expect(result.status == 1, "\(arguments): \(result.standardError)")
      #expect(
        result.standardError.contains("refusing to write onto the input file"),
        "\(arguments): \(result.standardError)")
      #expect(bytes(original) == before, "\(arguments) changed the original")
    }
    #expect(fileType(path("l1.jpg")) == S_IFREG && bytes(path("hard.jpg")) == before)
  }

  @Test func anOutputFolderReachedThroughALinkIntoAnInputIsRefused() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    _ = try folder("in/sub")
    _ = try copyRocket(to: "in/a.jpg")
    // OUT's parent is a link into IN, and OUT does not exist yet.
    try link("into", to: path("in/sub"))
    let (inside, _) = try run(["batch", path("in"), "-o", path("into/out")])
    #expect(inside.status == 1)
    #expect(inside.standardError.contains("lies inside input folder"), "\(inside.standardError)")
    // IN is a link to a folder that holds OUT.
    try link("inlink", to: path("in"))
    let (around, _) = try run(["batch", path("inlink"), "-o", path("in/out")])
    #expect(around.status == 1)
    #expect(around.standardError.contains("lies inside input folder"), "\(around.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: path("in/sub")).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: path("in/out")))
  }

  @Test func specialFilesAreRefusedBeforeTheyAreRead() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try folder("in")
    _ = try copyRocket(to: "in/good.jpg")
    _ = try fifo("pipe")
    try link("in/pipe.jpg", to: path("pipe"))
    try link("in/zero.jpg", to: "/dev/zero")
    try link("in/zero", to: "/dev/zero")
    // FFmpeg would wait on a FIFO named like a video: video, info and studio refuse it first.
    try link("clip.mp4", to: path("pipe"))
    for arguments in [
      ["apply", "/dev/zero", "-o", path("z.jpg")], ["info", "/dev/zero"],
      ["apply", path("in/pipe.jpg"), "-o", path("p.jpg")],
      ["video", path("clip.mp4"), "-o", path("v.mp4")], ["info", path("clip.mp4")],
      ["studio", path("clip.mp4"), "--port", "0"], ["video", "/dev/zero", "-o", path("z.mp4")],
    ] {
      let (result, timedOut) = try run(arguments)
      #expect(!timedOut, "\(arguments) hung")
      #expect(result.status == 1)
      #expect(result.standardError.contains("not a regular file"), "\(result.standardError)")
    }
    let (batch, timedOut) = try run(["batch", input, "-o", path("out"), "--json"])
    #expect(!timedOut, "batch hung")
    #expect(batch.status == 1)
    let found = events(batch.standardOutput)
    #expect(found.keys.sorted() == ["good.jpg", "pipe.jpg", "zero.jpg"])
    #expect(found["good.jpg"]?.status == "done")
    for name in ["pipe.jpg", "zero.jpg"] {
      #expect(found[name]?.status == "failed" && found[name]?.error == "not a regular file")
    }
    #expect(fileType(path("pipe")) == S_IFIFO)
  }

  @Test func linksThatLeadNowhereAreReportedNotPassedOver() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try folder("in")
    _ = try copyRocket(to: "in/good.jpg")
    try link("in/moved.jpg", to: path("gone/moved.jpg"))
    try link("in/self.jpg", to: "self.jpg")
    try link("in/notes.txt", to: path("gone/notes.txt"))
    let (batch, timedOut) = try run(["batch", input, "-o", path("out"), "--json"])
    #expect(!timedOut, "batch hung")
    #expect(batch.status == 1)
    let found = events(batch.standardOutput)
    #expect(found.keys.sorted() == ["good.jpg", "moved.jpg", "self.jpg"])
    #expect(found["good.jpg"]?.status == "done")
    #expect(found["moved.jpg"]?.status == "failed")
    #expect(
      found["moved.jpg"]?.error
        == "a broken symbolic link (to \(path("gone/moved.jpg")), which does not exist)")
    #expect(found["self.jpg"]?.status == "failed")
    #expect(found["self.jpg"]?.error == "a loop of symbolic links")
    // A link without an image's name is counted as ignored, as any file that is not an image is.
    #expect(batch.standardOutput.contains("\"ignored\":1,"), "\(batch.standardOutput)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: path("out")).filter {
        $0.hasSuffix(".jpg")
      } == ["good.jpg"])
  }

  @Test func foldersReachedTwiceThroughLinksAreWalkedOnce() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    _ = try folder("in/sub")
    _ = try copyRocket(to: "in/a.jpg")
    _ = try copyRocket(to: "in/sub/b.jpg")
    try link("in/sub/loop", to: "..")
    try link("in/self1", to: ".")
    try link("in/self2", to: ".")
    _ = try folder("elsewhere")
    _ = try copyRocket(to: "elsewhere/c.jpg")
    try link("in/one", to: path("elsewhere"))
    try link("in/two", to: path("elsewhere"))
    let output = path("out")
    let (batch, timedOut) = try run(
      ["batch", path("in"), "-o", output, "--json", "--follow-symlinks"], within: 15)
    #expect(!timedOut, "the walk never ended")
    #expect(batch.status == 1)
    let written = try FileManager.default.subpathsOfDirectory(atPath: output)
      .filter { $0.hasSuffix(".jpg") }.sorted()
    #expect(written == ["a.jpg", "one/c.jpg", "sub/b.jpg"])
    let lines = batch.standardOutput.split(separator: "\n")
    let skipped = lines.filter { $0.contains("not walked") }
    #expect(skipped.count == 4, "\(skipped)")
    #expect(skipped.filter { $0.contains("a folder above it") }.count == 3)
    #expect(skipped.filter { $0.contains("two") && $0.contains("already walked") }.count == 1)
  }

  @Test func anUnlistableSubFolderIsOneFailedEntryAndTheRestIsProcessed() throws {
    // Root lists any folder, so this runs framedial as "nobody" when it can.
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), getuid() == 0 else {
      return
    }
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: root.path)
    _ = try folder("in/locked")
    _ = try copyRocket(to: "in/open.jpg")
    _ = try copyRocket(to: "in/locked/hidden.jpg")
    for (relative, mode) in [("in", 0o755), ("in/open.jpg", 0o644), ("in/locked", 0o000)] {
      try FileManager.default.setAttributes(
        [.posixPermissions: mode], ofItemAtPath: path(relative))
    }
    let output = try folder("out")
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: output)
    let (batch, timedOut) = try run(
      ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.binary.path]
        + ["batch", path("in"), "-o", output, "--json"],
      executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
    #expect(!timedOut)
    #expect(batch.status == 1, "\(batch.standardError)")
    let found = events(batch.standardOutput)
    #expect(found["open.jpg"]?.status == "done")
    #expect(found["locked"]?.status == "failed")
    #expect(found["locked"]?.error == "cannot list the folder: permission denied")
    #expect(found.count == 2)
    #expect(FileManager.default.fileExists(atPath: path("out/open.jpg")))
  }

  @Test func outputsThatAreNotRegularFilesAreNeverReplaced() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try copyRocket(to: "in.jpg")
    let pipe = try fifo("pipe.jpg")
    try link("null.jpg", to: "/dev/null")
    let attempts: [[String]] = [
      ["apply", input, "-o", pipe],
      ["apply", input, "-o", path("null.jpg"), "--format", "jpeg"],
      ["preview", input, "-o", pipe],
      ["sweep", input, "-o", pipe, "--control", "ev"],
    ]
    for arguments in attempts {
      let (result, timedOut) = try run(arguments)
      #expect(!timedOut)
      #expect(result.status == 1, "\(arguments): \(result.standardError)")
      #expect(
        result.standardError.contains("not a regular file; refusing to replace it"),
        "\(arguments): \(result.standardError)")
    }
    _ = try folder("batch-in")
    _ = try copyRocket(to: "batch-in/pipe.jpg")
    _ = try folder("batch-out")
    _ = try fifo("batch-out/pipe.jpg")
    for extra in [[], ["--overwrite"]] {
      let (batch, timedOut) = try run(
        ["batch", path("batch-in"), "-o", path("batch-out"), "--json"] + extra)
      #expect(!timedOut)
      #expect(batch.status == 1)
      #expect(events(batch.standardOutput)["pipe.jpg"]?.status == "failed", "\(extra)")
    }
    #expect(fileType(pipe) == S_IFIFO && fileType(path("batch-out/pipe.jpg")) == S_IFIFO)
    #expect(fileType(path("null.jpg")) == S_IFCHR && fileType("/dev/null") == S_IFCHR)
    var linkInfo = stat()
    #expect(lstat(path("null.jpg"), &linkInfo) == 0 && linkInfo.st_mode & S_IFMT == S_IFLNK)
  }

  @Test func aFolderThatCannotBeCreatedIsOnePlainLine() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    // The output's sub-folder "sub" is taken by a file: that image fails with one plain line.
    _ = try folder("in/sub")
    _ = try copyRocket(to: "in/sub/a.jpg")
    _ = try folder("out")
    _ = FileManager.default.createFile(atPath: path("out/sub"), contents: Data("x".utf8))
    let (batch, _) = try run(["batch", path("in"), "-o", path("out")])
    #expect(batch.status == 1)
    #expect(
      batch.standardError.contains(
        "failed  \(path("in/sub/a.jpg")): cannot create the folder \(path("out/sub")): not a directory"
      ),
      "\(batch.standardError)")
    #expect(!batch.standardError.contains("Domain="))
  }
}
