import Controls
import Foundation
import Synchronization
import Testing

@testable import FrameDial

@Suite struct BatchPathSafetyTests {
  func layout(_ root: URL) throws -> BatchLayout {
    try BatchLayout(
      inputs: [root.appendingPathComponent("in").path],
      outputFolder: root.appendingPathComponent("out").path, naming: OutputNaming())
  }

  func scratchWithImages(_ count: Int) throws -> URL {
    let root = try RenderFixtures.scratchFolder()
    let input = root.appendingPathComponent("in/sub")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for index in 0..<count {
      try FileManager.default.copyItem(
        atPath: RenderFixtures.sample("rocket.jpg"),
        toPath: input.appendingPathComponent("r\(index).jpg").path)
    }
    return root
  }

  @Test func planningStopsWhenAskedTo() throws {
    let root = try scratchWithImages(6)
    defer { try? FileManager.default.removeItem(at: root) }
    let asked = Atomic(0)
    // Stop on the fourth question: the walk must end there with a clear error, not finish the folder.
    #expect(throws: RenderError("interrupted while looking for images")) {
      try layout(root).items(shouldStop: {
        asked.add(1, ordering: .relaxed).newValue >= 4
      })
    }
    #expect(asked.load(ordering: .relaxed) == 4)
    #expect(try layout(root).items().count == 6)
  }

  @Test func anInputSwappedForAFIFOAfterPlanningFailsWithoutHanging() throws {
    let root = try scratchWithImages(2)
    defer { try? FileManager.default.removeItem(at: root) }
    let items = try layout(root).items()
    #expect(items.count == 2)
    let swapped = items[0].input
    try FileManager.default.removeItem(atPath: swapped)
    #expect(mkfifo(swapped, 0o644) == 0)
    // Should a reader block on the FIFO, keep opening it for writing after a while so each read ends
    // at once (the test then fails on the message instead of hanging).
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      var wait = 5.0
      while done.wait(timeout: .now() + wait) == .timedOut {
        let writer = open(swapped, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        wait = 0.05
      }
    }
    let events = Mutex<[BatchEvent]>([])
    let start = Date()
    let summary = BatchRunner(state: ControlState(exposureBias: 0.3), jobs: 1).run(items) { event in
      events.withLock { $0.append(event) }
    }
    done.signal()
    #expect(Date().timeIntervalSince(start) < 4)
    #expect(summary.done == 1 && summary.failed == 1)
    let failed = events.withLock { $0.first { $0.status == .failed } }
    #expect(failed?.path == swapped)
    #expect(failed?.error == "not a regular file")
  }

  @Test func anOutputThatIsALinkToAnInputIsRefused() throws {
    let root = try scratchWithImages(2)
    defer { try? FileManager.default.removeItem(at: root) }
    let output = root.appendingPathComponent("out/sub")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    try FileManager.default.linkItem(
      atPath: root.appendingPathComponent("in/sub/r0.jpg").path,
      toPath: output.appendingPathComponent("r0.jpg").path)
    try FileManager.default.createSymbolicLink(
      atPath: output.appendingPathComponent("r1.jpg").path,
      withDestinationPath: root.appendingPathComponent("in/sub/r1.jpg").path)
    let items = try layout(root).items()
    #expect(items.count == 2)
    for item in items {
      #expect(item.problem?.hasSuffix("is an input file; refusing to overwrite it") == true)
    }
  }

  @Test func foundationFileErrorsBecomeOnePlainLine() throws {
    let root = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let file = root.appendingPathComponent("file").path
    _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
    do {
      try FileManager.default.createDirectory(
        atPath: file + "/sub", withIntermediateDirectories: true)
      Issue.record("creating a folder below a file succeeded")
    } catch {
      #expect(ErrorMessage.plain(error) == "\(file)/sub: not a directory")
    }
    #expect(ErrorMessage.plain(RenderError("x.jpg: empty file")) == "x.jpg: empty file")
  }
}
