import Controls
import Foundation
import FrameDial

/// Moves frames from one descriptor through a renderer to another: reads a whole frame, applies the
/// timeline's events due at its time, renders it and writes it, frame after frame. Packed RGB frames go
/// through a ``FrameDial/FrameRenderer``, YUV 4:2:0 frames through a ``FrameDial/YUVFrameRenderer``;
/// in a YUV4MPEG2 stream each frame comes after a `FRAME` line and goes out after one.
///
/// Reading and writing run on threads of their own (see ``FrameRelay``): the next frame is read while
/// one renders and the last is written, so the processes on both sides of a pipe keep working. Frames
/// still go out in order, and errors are reported as if one thread did everything: the first frame
/// that fails decides, after every frame before it is written.
struct FramePump {
  /// The checked options of the run (with `--y4m`, completed from the stream header).
  let options: FramesOptions
  /// Where frames come from.
  let reader: RawFrameReader
  /// Where rendered frames go.
  let writer: RawFrameWriter

  /// Frames read ahead and frames waiting to be written, at most, on each side of the render.
  static let depth = 2

  /// Pumps frames until the input ends, recording each frame's render time in `stats`.
  ///
  /// - Throws: ``FramesError`` for an incomplete last frame (after every whole frame is written), a
  ///   failed read or write, a bad `FRAME` line, or a reader that went away; `RenderError` or
  ///   `VipsError` when a frame cannot be rendered.
  func run(stats: inout FrameStats) throws {
    let live = LiveControlState(options.state)
    let render = try renderFunction(live)
    let relay = FrameRelay(frameBytes: options.frameBytes, depth: Self.depth)
    let (reader, writer, y4m, frameBytes) = (reader, writer, options.y4m, options.frameBytes)
    Thread.detachNewThread {
      Self.read(from: reader, into: relay, y4m: y4m, frameBytes: frameBytes)
    }
    Thread.detachNewThread { Self.write(from: relay, to: writer, y4m: y4m) }
    do {
      try renderFrames(from: relay, render: render, live: live, stats: &stats)
    } catch {
      // A write that failed did so on an earlier frame: its error comes first.
      try relay.finish()
      throw error
    }
    try relay.finish()
  }

  /// Renders the relay's frames in order until the input ends or the writer fails.
  private func renderFrames(
    from relay: FrameRelay,
    render: (UnsafeRawBufferPointer, UnsafeMutableRawBufferPointer) throws -> Void,
    live: LiveControlState, stats: inout FrameStats
  ) throws {
    var timeline = options.timeline.map {
      FrameTimeline($0.events, fps: $0.fps ?? 1, state: options.state)
    }
    while true {
      let input: FrameBuffer
      switch relay.nextInput() {
      case .end: return
      case .failure(let error): throw error
      case .frame(let buffer): input = buffer
      }
      if let state = try timeline?.stateChange(atFrame: input.frame - 1) { live.set(state) }
      guard let output = relay.emptyOutput() else { return }
      let start = ContinuousClock.now
      do {
        try render(UnsafeRawBufferPointer(input.bytes), output.bytes)
      } catch {
        throw RenderError("frame \(input.frame) cannot be rendered: \(error)")
      }
      stats.record(render: start.duration(to: .now))
      output.frame = input.frame
      relay.recycle(input: input)
      relay.send(output)
    }
  }

  /// The reader thread: whole frames (after their `FRAME` lines in a YUV4MPEG2 stream) into the relay,
  /// then the input's end or its first failure.
  private static func read(
    from reader: RawFrameReader, into relay: FrameRelay, y4m: Bool, frameBytes: Int
  ) {
    var frame = 0
    while let buffer = relay.emptyInput() {
      frame += 1
      do {
        if y4m {
          guard let line = try reader.line(frame: frame) else { return relay.deliver(.end) }
          guard line == "FRAME" || line.hasPrefix("FRAME ") else {
            throw FramesError.badFrameHeader(frame: frame, found: String(line.prefix(40)))
          }
        }
        let received = try reader.fill(buffer.bytes, frame: frame)
        if received == 0 && !y4m { return relay.deliver(.end) }
        guard received == frameBytes else {
          throw FramesError.incompleteFrame(
            frame: frame, received: received, expected: frameBytes)
        }
        buffer.frame = frame
        relay.deliver(.frame(buffer))
      } catch {
        return relay.deliver(.failure(error))
      }
    }
  }

  /// The writer thread: rendered frames (each after a `FRAME` line in a YUV4MPEG2 stream) in order,
  /// until the run ends or a write fails.
  private static func write(from relay: FrameRelay, to writer: RawFrameWriter, y4m: Bool) {
    do {
      while let buffer = relay.nextOutput() {
        if y4m { try writer.write(Array("FRAME\n".utf8), frame: buffer.frame) }
        try writer.write(UnsafeRawBufferPointer(buffer.bytes), frame: buffer.frame)
        relay.recycle(output: buffer)
      }
      relay.writerEnded(nil)
    } catch {
      relay.writerEnded(error)
    }
  }

  /// The renderer of the run's frames, as one function from input to output.
  private func renderFunction(_ live: LiveControlState) throws -> (
    UnsafeRawBufferPointer, UnsafeMutableRawBufferPointer
  ) throws -> Void {
    if let layout = options.yuvLayout {
      let renderer = try YUVFrameRenderer(
        layout: layout, controls: live, encoding: options.encoding)
      return { input, output in try renderer.render(input, into: output) }
    }
    let renderer = try FrameRenderer(
      width: options.width, height: options.height, pixelFormat: options.pixelFormat,
      controls: live, encoding: options.encoding)
    return { input, output in try renderer.render(input, into: output) }
  }
}
