import Controls
import FrameDial

/// Moves raw frames from one descriptor through a ``FrameDial/FrameRenderer`` to another: reads a whole
/// frame, applies the timeline's events due at its time, renders it and writes it, frame after frame.
struct FramePump {
  /// The checked options of the run.
  let options: FramesOptions
  /// Where frames come from.
  let reader: RawFrameReader
  /// Where rendered frames go.
  let writer: RawFrameWriter

  /// Pumps frames until the input ends, recording each frame's render time in `stats`.
  ///
  /// - Throws: ``FramesError`` for an incomplete last frame (after every whole frame is written), a
  ///   failed read or write, or a reader that went away; `RenderError` or `VipsError` when a frame cannot
  ///   be rendered.
  func run(stats: inout FrameStats) throws {
    let live = LiveControlState(options.state)
    let renderer = try FrameRenderer(
      width: options.width, height: options.height, pixelFormat: options.pixelFormat,
      controls: live)
    var timeline = options.timeline.map {
      FrameTimeline($0.events, fps: $0.fps, state: options.state)
    }
    let input = UnsafeMutableRawBufferPointer.allocate(
      byteCount: options.frameBytes, alignment: 64)
    defer { input.deallocate() }
    let output = UnsafeMutableRawBufferPointer.allocate(
      byteCount: options.frameBytes, alignment: 64)
    defer { output.deallocate() }
    var frame = 0
    while true {
      let received = try reader.fill(input, frame: frame + 1)
      if received == 0 { return }
      guard received == options.frameBytes else {
        throw FramesError.incompleteFrame(
          frame: frame + 1, received: received, expected: options.frameBytes)
      }
      if let state = try timeline?.stateChange(atFrame: frame) { live.set(state) }
      let start = ContinuousClock.now
      do {
        try renderer.render(UnsafeRawBufferPointer(input), into: output)
      } catch {
        throw RenderError("frame \(frame + 1) cannot be rendered: \(error)")
      }
      stats.record(render: start.duration(to: .now))
      try writer.write(UnsafeRawBufferPointer(output), frame: frame + 1)
      frame += 1
    }
  }
}
