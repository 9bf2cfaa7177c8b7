import Controls
import FrameDial

/// Moves frames from one descriptor through a renderer to another: reads a whole frame, applies the
/// timeline's events due at its time, renders it and writes it, frame after frame. Packed RGB frames go
/// through a ``FrameDial/FrameRenderer``, YUV 4:2:0 frames through a ``FrameDial/YUVFrameRenderer``;
/// in a YUV4MPEG2 stream each frame comes after a `FRAME` line and goes out after one.
struct FramePump {
  /// The checked options of the run (with `--y4m`, completed from the stream header).
  let options: FramesOptions
  /// Where frames come from.
  let reader: RawFrameReader
  /// Where rendered frames go.
  let writer: RawFrameWriter

  /// Pumps frames until the input ends, recording each frame's render time in `stats`.
  ///
  /// - Throws: ``FramesError`` for an incomplete last frame (after every whole frame is written), a
  ///   failed read or write, a bad `FRAME` line, or a reader that went away; `RenderError` or
  ///   `VipsError` when a frame cannot be rendered.
  func run(stats: inout FrameStats) throws {
    let live = LiveControlState(options.state)
    let render = try renderFunction(live)
    var timeline = options.timeline.map {
      FrameTimeline($0.events, fps: $0.fps ?? 1, state: options.state)
    }
    let input = UnsafeMutableRawBufferPointer.allocate(
      byteCount: options.frameBytes, alignment: 64)
    defer { input.deallocate() }
    let output = UnsafeMutableRawBufferPointer.allocate(
      byteCount: options.frameBytes, alignment: 64)
    defer { output.deallocate() }
    var frame = 0
    while true {
      if options.y4m {
        guard let line = try reader.line(frame: frame + 1) else { return }
        guard line == "FRAME" || line.hasPrefix("FRAME ") else {
          throw FramesError.badFrameHeader(frame: frame + 1, found: String(line.prefix(40)))
        }
      }
      let received = try reader.fill(input, frame: frame + 1)
      if received == 0 && !options.y4m { return }
      guard received == options.frameBytes else {
        throw FramesError.incompleteFrame(
          frame: frame + 1, received: received, expected: options.frameBytes)
      }
      if let state = try timeline?.stateChange(atFrame: frame) { live.set(state) }
      let start = ContinuousClock.now
      do {
        try render(UnsafeRawBufferPointer(input), output)
      } catch {
        throw RenderError("frame \(frame + 1) cannot be rendered: \(error)")
      }
      stats.record(render: start.duration(to: .now))
      if options.y4m { try writer.write(Array("FRAME\n".utf8), frame: frame + 1) }
      try writer.write(UnsafeRawBufferPointer(output), frame: frame + 1)
      frame += 1
    }
  }

  /// The renderer of the run's frames, as one function from input to output.
  private func renderFunction(_ live: LiveControlState) throws -> (
    UnsafeRawBufferPointer, UnsafeMutableRawBufferPointer
  ) throws -> Void {
    if let layout = options.yuvLayout {
      let renderer = try YUVFrameRenderer(layout: layout, controls: live)
      return { input, output in try renderer.render(input, into: output) }
    }
    let renderer = try FrameRenderer(
      width: options.width, height: options.height, pixelFormat: options.pixelFormat,
      controls: live)
    return { input, output in try renderer.render(input, into: output) }
  }
}
