import Foundation
import Testing

@testable import FrameDialCLI

@Suite struct FrameRelayTests {
  struct WriteFailed: Error, Equatable { let frame: Int }

  /// Runs a reader thread delivering `count` frames (each filled with its number) and a writer thread
  /// collecting what it is sent (failing at frame `failAt`), with the calling thread copying each input
  /// into an output as the render would; returns the frames the writer received and `finish()`'s error.
  func relay(count: Int, failAt: Int? = nil) -> (written: [[UInt8]], error: (any Error)?) {
    let relay = FrameRelay(frameBytes: 4096, depth: 2)
    Thread.detachNewThread {
      for frame in 1...count {
        guard let buffer = relay.emptyInput() else { return }
        buffer.bytes.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: frame))
        buffer.frame = frame
        relay.deliver(.frame(buffer))
      }
      relay.deliver(.end)
    }
    let collected = Collected()
    Thread.detachNewThread {
      while let buffer = relay.nextOutput() {
        if buffer.frame == failAt { return relay.writerEnded(WriteFailed(frame: buffer.frame)) }
        collected.append(Array(buffer.bytes))
        relay.recycle(output: buffer)
      }
      relay.writerEnded(nil)
    }
    rendering: while case .frame(let input) = relay.nextInput() {
      guard let output = relay.emptyOutput() else { break rendering }
      output.bytes.copyMemory(from: UnsafeRawBufferPointer(input.bytes))
      output.frame = input.frame
      relay.recycle(input: input)
      relay.send(output)
    }
    do {
      try relay.finish()
      return (collected.frames, nil)
    } catch {
      return (collected.frames, error)
    }
  }

  @Test func everyFrameArrivesInOrderWithItsOwnBytes() {
    let (written, error) = relay(count: 300)
    #expect(error == nil)
    #expect(written.count == 300)
    #expect(written.map { $0[0] } == (1...300).map { UInt8(truncatingIfNeeded: $0) })
    #expect(written.allSatisfy { Set($0).count == 1 && $0.count == 4096 })
  }

  @Test func aFailedWriteStopsTheRenderAndIsWhatFinishReports() {
    let (written, error) = relay(count: 300, failAt: 7)
    #expect(written.count == 6)
    #expect(written.map { $0[0] } == [1, 2, 3, 4, 5, 6])
    #expect((error as? WriteFailed) == WriteFailed(frame: 7))
  }

  @Test func finishWithNothingSentReturnsAtOnce() throws {
    let relay = FrameRelay(frameBytes: 16, depth: 2)
    Thread.detachNewThread {
      while let buffer = relay.nextOutput() { relay.recycle(output: buffer) }
      relay.writerEnded(nil)
    }
    try relay.finish()
    // The reader is told to stop: no input buffer is handed out after the end.
    #expect(relay.emptyInput() == nil)
  }
}

/// Frames the writer thread received, read by the test thread after `finish()`.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var received: [[UInt8]] = []

  func append(_ frame: [UInt8]) { lock.withLock { received.append(frame) } }

  var frames: [[UInt8]] { lock.withLock { received } }
}
