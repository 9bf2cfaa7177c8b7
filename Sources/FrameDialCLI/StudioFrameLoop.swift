import Controls
import Foundation
import FrameDial
import Vips

/// Renders `framedial studio`'s live frames on a thread of its own: whenever the control state's
/// generation differs from the one rendered last, or a video hands in a new picture (``show(_:)``), it
/// renders the latest picture with the latest state (never a queue of stale ones: changes and pictures
/// that arrive while a frame renders are taken together by the next frame, pictures replaced in
/// between are skipped), encodes the frame as JPEG and hands it to `publish` with the milliseconds the
/// render took (the pixels, not the encoding).
final class StudioFrameLoop: @unchecked Sendable {
  // `@unchecked Sendable`: `renderer` and the buffers are used on the render thread only; `stopping`
  // and `picture` are guarded by `condition`.
  /// The JPEG quality of live frames.
  static let quality = 85

  private let source: ViewfinderSource
  private let renderer: FrameRenderer
  private var publish: @Sendable (Data, UInt64, Double) -> Void = { _, _, _ in }
  private var fail: @Sendable (String, UInt64) -> Void = { _, _ in }
  private let condition = NSCondition()
  private var stopping = false
  private var started = false
  /// The newest picture handed in and its number (0: the source's own pixels).
  private var picture: (pixels: [UInt8], number: UInt64)
  private let finished = DispatchSemaphore(value: 0)

  /// Prepares a loop over `source` following `live`.
  init(source: ViewfinderSource, live: LiveControlState) throws {
    self.source = source
    picture = (source.pixels, 0)
    renderer = try FrameRenderer(
      width: source.width, height: source.height, pixelFormat: .rgb24, controls: live)
  }

  /// Starts the render thread, which renders the current state at once: `publish` gets each frame, its
  /// generation and its render time in milliseconds, `fail` a failure's message and the generation
  /// that failed. Call once.
  func start(
    publish: @escaping @Sendable (Data, UInt64, Double) -> Void,
    fail: @escaping @Sendable (String, UInt64) -> Void
  ) {
    self.publish = publish
    self.fail = fail
    started = true
    let thread = Thread { [self] in
      run()
      finished.signal()
    }
    thread.name = "framedial-studio-render"
    thread.start()
  }

  /// Tells the loop the state changed; safe from any thread.
  func wake() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }

  /// Hands in a new picture of the source's size (the next video frame), replacing any not yet
  /// rendered; safe from any thread.
  func show(_ pixels: [UInt8]) {
    condition.lock()
    picture = (pixels, picture.number &+ 1)
    condition.broadcast()
    condition.unlock()
  }

  /// Stops the loop after the frame it is rendering, and waits for it.
  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    condition.unlock()
    if started { finished.wait() }
  }

  private func run() {
    var output = [UInt8](repeating: 0, count: source.pixels.count)
    var rendered: UInt64?
    var renderedPicture: UInt64?
    while true {
      condition.lock()
      while !stopping && rendered == renderer.controls.generation
        && renderedPicture == picture.number
      {
        condition.wait()
      }
      let stop = stopping
      let (pixels, number) = picture
      condition.unlock()
      if stop { return }
      renderedPicture = number
      let wanted = renderer.controls.generation
      do {
        let started = ContinuousClock.now
        let generation = try pixels.withUnsafeBytes { input in
          try output.withUnsafeMutableBytes { try renderer.render(input, into: $0) }
        }
        let renderTime = ContinuousClock.now - started
        let layout = FrameLayout(width: source.width, height: source.height, bands: 3)
        let jpeg = try output.withUnsafeBytes { pixels in
          try Image(wrapping: pixels, layout: layout).encoded(
            as: .jpeg, options: SaveOptions(quality: Self.quality, keepMetadata: false))
        }
        rendered = generation
        let milliseconds =
          Double(renderTime.components.seconds) * 1000
          + Double(renderTime.components.attoseconds) / 1e15
        publish(jpeg, generation, milliseconds)
      } catch {
        rendered = wanted
        fail(ErrorMessage.plain(error), wanted)
      }
    }
  }
}
