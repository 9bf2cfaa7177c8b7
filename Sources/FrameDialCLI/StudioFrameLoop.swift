import Controls
import Foundation
import FrameDial
import Vips

/// Renders `framedial studio`'s live frames on a thread of its own: whenever the control state's
/// generation differs from the one rendered last, it renders the latest state (never a queue of stale
/// ones: changes that arrive while a frame renders are taken together by the next frame), encodes the
/// frame as JPEG and hands it to `publish` with the milliseconds the render (the pixels) and the
/// encoding took. Frames are rendered at the size the page shows (``show(width:height:)``), never
/// above the source's: a smaller frame renders, encodes, travels and decodes faster.
final class StudioFrameLoop: @unchecked Sendable {
  // `@unchecked Sendable`: `renderer`, `shown` and the buffers are used on the render thread only;
  // `stopping` and `displayBox` are guarded by `condition`.
  /// The JPEG quality of live frames.
  static let quality = 85

  private let source: ViewfinderSource
  private let live: LiveControlState
  /// The source at the size rendered now, and its renderer.
  private var shown: ViewfinderSource
  private var renderer: FrameRenderer
  /// The page's displayed viewfinder size (device pixels), nil until a page tells it.
  private var displayBox: (width: Int, height: Int)?
  private var publish: @Sendable (Data, UInt64, Double, Double) -> Void = { _, _, _, _ in }
  private var fail: @Sendable (String, UInt64) -> Void = { _, _ in }
  private let condition = NSCondition()
  private var stopping = false
  private var started = false
  private let finished = DispatchSemaphore(value: 0)

  /// Prepares a loop over `source` following `live`.
  init(source: ViewfinderSource, live: LiveControlState) throws {
    self.source = source
    self.live = live
    shown = source
    renderer = try FrameRenderer(
      width: source.width, height: source.height, pixelFormat: .rgb24, controls: live)
  }

  /// Starts the render thread, which renders the current state at once: `publish` gets each frame, its
  /// generation and its render and encoding times in milliseconds, `fail` a failure's message and the
  /// generation that failed. Call once.
  func start(
    publish: @escaping @Sendable (Data, UInt64, Double, Double) -> Void,
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

  /// Tells the loop the page shows the viewfinder at `width × height` device pixels: the next frames
  /// are rendered at the source's aspect ratio fitted in that box (never above the source's size),
  /// and a frame at the new size follows at once. Safe from any thread.
  func show(width: Int, height: Int) {
    condition.lock()
    displayBox = (width, height)
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

  /// The size frames take now: the source fitted in the page's box, or the source's own size.
  private func wantedSize() -> (width: Int, height: Int) {
    displayBox.map { source.displaySize(fitting: $0.width, $0.height) }
      ?? (source.width, source.height)
  }

  /// Resizes the source and makes a renderer for frames of `size` (on a size change only).
  private func prepare(_ size: (width: Int, height: Int)) throws {
    guard size != (shown.width, shown.height) else { return }
    let resized = try source.resized(toWidth: size.width, height: size.height)
    renderer = try FrameRenderer(
      width: resized.width, height: resized.height, pixelFormat: .rgb24, controls: live)
    shown = resized
  }

  private func run() {
    var output = [UInt8](repeating: 0, count: shown.pixels.count)
    var rendered: (generation: UInt64, width: Int, height: Int)?
    while true {
      condition.lock()
      var size = wantedSize()
      while !stopping, let last = rendered, last.generation == live.generation,
        (last.width, last.height) == size
      {
        condition.wait()
        size = wantedSize()
      }
      let stop = stopping
      condition.unlock()
      if stop { return }
      let wanted = live.generation
      do {
        try prepare(size)
        if output.count != shown.pixels.count {
          output = [UInt8](repeating: 0, count: shown.pixels.count)
        }
        let started = ContinuousClock.now
        let generation = try shown.pixels.withUnsafeBytes { input in
          try output.withUnsafeMutableBytes { try renderer.render(input, into: $0) }
        }
        let rendering = ContinuousClock.now
        let layout = FrameLayout(width: shown.width, height: shown.height, bands: 3)
        let jpeg = try output.withUnsafeBytes { pixels in
          try Image(wrapping: pixels, layout: layout).encoded(
            as: .jpeg, options: SaveOptions(quality: Self.quality, keepMetadata: false))
        }
        let encoding = ContinuousClock.now
        rendered = (generation, shown.width, shown.height)
        publish(
          jpeg, generation, Self.milliseconds(rendering - started),
          Self.milliseconds(encoding - rendering))
      } catch {
        rendered = (wanted, size.width, size.height)
        fail(ErrorMessage.plain(error), wanted)
      }
    }
  }

  private static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }
}
