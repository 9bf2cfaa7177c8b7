import Foundation

/// One frame's bytes, handed between the `frames` command's reading, rendering and writing threads; only
/// the thread that holds it touches it.
final class FrameBuffer: @unchecked Sendable {
  /// The frame's bytes (64-byte aligned).
  let bytes: UnsafeMutableRawBufferPointer
  /// The frame's number, from 1, while the buffer carries a frame.
  var frame = 0

  init(byteCount: Int) {
    bytes = .allocate(byteCount: byteCount, alignment: 64)
  }

  deinit { bytes.deallocate() }
}

/// The hand-over between the `frames` command's three threads: a reader thread fills input buffers
/// ahead of the render, the rendering thread takes them in order and passes output buffers on, and a
/// writer thread writes those behind it. Each side has a fixed number of buffers, so the reader is at
/// most that many frames ahead and the writer that many behind, and memory stays bounded.
///
/// In a pipe (`ffmpeg … | framedial frames … | ffmpeg …`) this keeps the processes on both sides
/// moving while a frame renders, instead of each waiting for the others in turn.
final class FrameRelay: @unchecked Sendable {
  /// What the reader hands over next.
  enum Input {
    /// A whole frame.
    case frame(FrameBuffer)
    /// The input ended cleanly after the frames before.
    case end
    /// The input failed after the frames before.
    case failure(any Error)
  }

  private let condition = NSCondition()
  private var freeInputs: [FrameBuffer]
  private var inputs: [Input] = []
  private var freeOutputs: [FrameBuffer]
  private var outputs: [FrameBuffer] = []
  /// No more outputs will come: the writer ends when it has written the queued ones.
  private var outputsClosed = false
  /// The writer is no longer writing (done or failed).
  private var writerFinished = false
  /// Why the writer stopped early, if it did.
  private var writerError: (any Error)?
  /// The rendering thread gave up: the reader stops at its next frame.
  private var stopped = false

  /// A relay with `depth` buffers of `frameBytes` bytes on each side.
  init(frameBytes: Int, depth: Int) {
    freeInputs = (0..<depth).map { _ in FrameBuffer(byteCount: frameBytes) }
    freeOutputs = (0..<depth).map { _ in FrameBuffer(byteCount: frameBytes) }
  }

  // MARK: Reader thread

  /// An empty input buffer to fill, or nil when the rendering thread has stopped.
  func emptyInput() -> FrameBuffer? {
    takeFree(from: \.freeInputs, unless: { stopped })
  }

  /// Hands a filled buffer, the input's end or its failure to the rendering thread.
  func deliver(_ input: Input) {
    append(input, to: \.inputs)
  }

  // MARK: Rendering thread

  /// The next input, in order; blocks until the reader has it. When the writer has failed, `.end`
  /// instead of waiting for the reader (``finish()`` then reports the failure).
  func nextInput() -> Input {
    locked {
      while inputs.isEmpty && writerError == nil { condition.wait() }
      return inputs.isEmpty ? .end : inputs.removeFirst()
    }
  }

  /// Gives an input buffer back to the reader once its frame is rendered.
  func recycle(input buffer: FrameBuffer) {
    append(buffer, to: \.freeInputs)
  }

  /// An output buffer to render into, or nil when the writer has failed (see ``finish()``).
  func emptyOutput() -> FrameBuffer? {
    takeFree(from: \.freeOutputs, unless: { writerFinished })
  }

  /// Queues a rendered frame for the writer.
  func send(_ buffer: FrameBuffer) {
    append(buffer, to: \.outputs)
  }

  /// Ends the run: the reader stops, the writer writes what is queued, and this returns once it has;
  /// throws the writer's error if writing failed.
  func finish() throws {
    let error: (any Error)? = locked {
      stopped = true
      outputsClosed = true
      condition.broadcast()
      while !writerFinished { condition.wait() }
      return writerError
    }
    if let error { throw error }
  }

  // MARK: Writer thread

  /// The next rendered frame to write, in order, or nil when the run has ended and all are written.
  func nextOutput() -> FrameBuffer? {
    locked {
      while outputs.isEmpty && !outputsClosed { condition.wait() }
      return outputs.isEmpty ? nil : outputs.removeFirst()
    }
  }

  /// Gives an output buffer back to the rendering thread once it is written.
  func recycle(output buffer: FrameBuffer) {
    append(buffer, to: \.freeOutputs)
  }

  /// The writer is done: `error` when writing failed (queued frames are then dropped).
  func writerEnded(_ error: (any Error)?) {
    locked {
      writerError = error
      writerFinished = true
      outputs.removeAll()
      condition.broadcast()
    }
  }

  /// A buffer from the pool at `pool`, waiting for one while `closed` is false; nil once it is true.
  private func takeFree(
    from pool: ReferenceWritableKeyPath<FrameRelay, [FrameBuffer]>, unless closed: () -> Bool
  ) -> FrameBuffer? {
    locked {
      while self[keyPath: pool].isEmpty && !closed() { condition.wait() }
      return closed() ? nil : self[keyPath: pool].removeLast()
    }
  }

  /// Appends `element` to the queue or pool at `list` and wakes the threads waiting on the relay.
  private func append<Element>(
    _ element: Element, to list: ReferenceWritableKeyPath<FrameRelay, [Element]>
  ) {
    locked {
      self[keyPath: list].append(element)
      condition.broadcast()
    }
  }

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }
}
