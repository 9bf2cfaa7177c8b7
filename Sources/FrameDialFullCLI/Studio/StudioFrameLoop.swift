import Controls
import Foundation
import FrameDial
import FrameDialCLI
import Measurement
import Studio
import Video
import Vips

/// Renders `framedial studio`'s live frames on a thread of its own: whenever the control state's
/// generation differs from the one rendered last, or a video hands in a new picture (``show(_:)``), it
/// renders the latest picture with the latest state (never a queue of stale ones: changes and pictures
/// that arrive while a frame renders are taken together by the next frame, pictures replaced in
/// between are skipped), makes the formats the server wants of it (raw RGBA, JPEG: ``want(rgba:jpeg:)``)
/// and hands it to `publish` with the milliseconds the render (scaling a new picture and the pixels)
/// and the whole frame took. When the server wants a format the last frame lacks, that frame is handed
/// in again with it. Frames are rendered at the size the page shows (``show(width:height:)``), never
/// above the source's: a smaller frame renders, travels and draws faster. An HDR source (HLG, PQ) is
/// rendered on its 16-bit codes in its own encoding, as `video --hdr sdr` renders it, and then
/// tone-mapped to SDR for the page (``RGBToneMapper``); a colour-only state does both in one pass over
/// the rows (``FrameRenderer/renderOnePass(_:then:into:)``).
final class StudioFrameLoop: @unchecked Sendable {
  // `@unchecked Sendable`: `renderer`, `toneMapper`, `renderSize`, `scaled` and the buffers are used
  // on the render thread only; `stopping`, `picture`, `displayBox` and `wanted` are guarded by
  // `condition`.
  /// The JPEG quality of live frames.
  static let quality = 85

  private let source: ViewfinderSource
  private let live: LiveControlState
  /// The size frames are rendered at now, and its renderer.
  private var renderSize: (width: Int, height: Int)
  private var renderer: FrameRenderer
  /// Makes the tone mapper of an HDR source's frames at a size; nil for SDR.
  private let makeToneMapper: ((Int, Int) throws -> RGBToneMapper)?
  /// The tone mapper at the size frames are rendered at now (HDR sources only).
  private var toneMapper: RGBToneMapper?
  /// The newest picture handed in, at the source's size, and its number (0: the source's own pixels).
  private var picture: (pixels: [UInt8], number: UInt64)
  /// The last picture scaled to a size other than the source's (a still is scaled once a size).
  private var scaled: (number: UInt64, width: Int, height: Int, pixels: [UInt8])?
  /// The page's displayed viewfinder size (device pixels), nil until a page tells it.
  private var displayBox: (width: Int, height: Int)?
  /// The formats the server wants frames in.
  private var wanted = (rgba: false, jpeg: false)
  private var publish: @Sendable (StudioFrame, UInt64, Double?, Double?) -> Void = { _, _, _, _ in }
  private var fail: @Sendable (String, UInt64) -> Void = { _, _ in }
  private let condition = NSCondition()
  private var stopping = false
  private var started = false
  private let finished = DispatchSemaphore(value: 0)

  /// Prepares a loop over `source` following `live`. An HDR source needs `toneMapper`, which makes
  /// the tone mapper of its frames at a width and height.
  ///
  /// - Throws: ``RenderError`` for an HDR source without `toneMapper`; what making the renderer or
  ///   the tone mapper throws.
  init(
    source: ViewfinderSource, live: LiveControlState,
    toneMapper make: ((Int, Int) throws -> RGBToneMapper)? = nil
  ) throws {
    self.source = source
    self.live = live
    renderSize = (source.width, source.height)
    picture = (source.pixels, 0)
    if source.sampleBytes == 2 {
      guard let make else {
        throw RenderError("an HDR picture (\(source.encoding)) needs a tone mapper to be shown")
      }
      makeToneMapper = make
    } else {
      makeToneMapper = nil
    }
    renderer = try Self.renderer(of: source, size: renderSize, live: live)
    self.toneMapper = try makeToneMapper?(source.width, source.height)
  }

  /// A renderer of `source`'s pixels at `size`: on their codes, in their encoding.
  private static func renderer(
    of source: ViewfinderSource, size: (width: Int, height: Int), live: LiveControlState
  ) throws -> FrameRenderer {
    try FrameRenderer(
      width: size.width, height: size.height,
      pixelFormat: source.sampleBytes == 2 ? .rgb48 : .rgb24, controls: live,
      encoding: source.encoding)
  }

  /// Starts the render thread, which renders the current state at once: `publish` gets each frame, its
  /// generation and, for a new render, the render's and the whole frame's times in milliseconds (nil
  /// for a frame handed in again with another format); `fail` gets a failure's message and the
  /// generation that failed. Call once.
  func start(
    publish: @escaping @Sendable (StudioFrame, UInt64, Double?, Double?) -> Void,
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

  /// Tells the loop the page shows the viewfinder at `width × height` device pixels: the next frames
  /// are rendered at the source's aspect ratio fitted in that box (never above the source's size),
  /// and a frame at the new size follows at once. Safe from any thread.
  func show(width: Int, height: Int) {
    condition.lock()
    displayBox = (width, height)
    condition.broadcast()
    condition.unlock()
  }

  /// Tells the loop which formats frames are wanted in from now on; the last frame is handed in again
  /// when it lacks one. Safe from any thread.
  func want(rgba: Bool, jpeg: Bool) {
    condition.lock()
    wanted = (rgba, jpeg)
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

  /// `current`'s pixels at `size`: its own at the source's size, else scaled (Lanczos 3, as the source
  /// was made), kept for the next frame of the same picture and size.
  private func pixels(
    of current: (pixels: [UInt8], number: UInt64), at size: (width: Int, height: Int)
  )
    throws -> [UInt8]
  {
    if size == (source.width, source.height) { return current.pixels }
    if let scaled, scaled.number == current.number, (scaled.width, scaled.height) == size {
      return scaled.pixels
    }
    var frame = source
    frame.pixels = current.pixels
    let resized = try frame.resized(toWidth: size.width, height: size.height).pixels
    scaled = (current.number, size.width, size.height, resized)
    return resized
  }

  /// Which frame the loop renders: the state's generation, the picture and the size.
  private struct FrameKey: Equatable {
    var generation: UInt64
    var picture: UInt64
    var width: Int
    var height: Int

    init(_ generation: UInt64, _ picture: UInt64, _ size: (width: Int, height: Int)) {
      (self.generation, self.picture) = (generation, picture)
      (width, height) = size
    }
  }

  /// What the loop made last: the frame and the formats made of it.
  private struct Made {
    var frame: FrameKey
    var rgba: Bool
    var jpeg: Bool
  }

  private func run() {
    // The rendered pixels; for HDR, in their encoding, before the tone mapping makes `output`.
    var rendered: [UInt8] = []
    var output: [UInt8] = []
    var made: Made?
    var number: UInt64 = 0
    while true {
      condition.lock()
      var size = wantedSize()
      while !stopping, let last = made,
        last.frame == FrameKey(live.generation, picture.number, size),
        last.rgba || !wanted.rgba, last.jpeg || !wanted.jpeg
      {
        condition.wait()
        size = wantedSize()
      }
      let stop = stopping
      let current = picture
      let formats = wanted
      condition.unlock()
      if stop { return }
      let generation = live.generation
      let key = FrameKey(generation, current.number, size)
      if var last = made, last.frame == key {
        // The same frame, in the formats it lacked (asked once: a failure is reported, not retried).
        let missing = (rgba: formats.rgba && !last.rgba, jpeg: formats.jpeg && !last.jpeg)
        (last.rgba, last.jpeg) = (last.rgba || missing.rgba, last.jpeg || missing.jpeg)
        made = last
        do {
          let frame = try makeFrame(
            number, from: output, size: size, rgba: missing.rgba, jpeg: missing.jpeg)
          publish(frame, last.frame.generation, nil, nil)
        } catch {
          fail(ErrorMessage.plain(error), last.frame.generation)
        }
        continue
      }
      do {
        if size != renderSize {
          renderer = try Self.renderer(of: source, size: size, live: live)
          toneMapper = try makeToneMapper?(size.width, size.height)
          renderSize = size
        }
        let started = ContinuousClock.now
        let input = try pixels(of: current, at: size)
        let generationShown: UInt64
        if let toneMapper {
          generationShown = try render(
            input, toneMappedBy: toneMapper, into: &output, using: &rendered)
        } else {
          if rendered.count != input.count { rendered = [UInt8](repeating: 0, count: input.count) }
          generationShown = try input.withUnsafeBytes { input in
            try rendered.withUnsafeMutableBytes { try renderer.render(input, into: $0) }
          }
          swap(&output, &rendered)
        }
        let rendering = ContinuousClock.now
        number &+= 1
        let frame = try makeFrame(
          number, from: output, size: size, rgba: formats.rgba, jpeg: formats.jpeg)
        var shown = key
        shown.generation = generationShown
        made = Made(frame: shown, rgba: formats.rgba, jpeg: formats.jpeg)
        publish(
          frame, generationShown, Timing.milliseconds(rendering - started),
          Timing.milliseconds(ContinuousClock.now - started))
      } catch {
        made = Made(frame: key, rgba: true, jpeg: true)
        fail(ErrorMessage.plain(error), generation)
      }
    }
  }

  /// The 16-bit HDR `input` at the render size rendered and tone-mapped into `output` (rgb24): in one
  /// pass over the rows when the state is colour only, else rendered whole into `rendered` and then
  /// tone-mapped. Returns the generation of the control state shown.
  private func render(
    _ input: [UInt8], toneMappedBy toneMapper: RGBToneMapper, into output: inout [UInt8],
    using rendered: inout [UInt8]
  ) throws -> UInt64 {
    let bytes = renderSize.width * renderSize.height * 3
    if output.count != bytes { output = [UInt8](repeating: 0, count: bytes) }
    let onePass = try input.withUnsafeBytes { input in
      try output.withUnsafeMutableBytes {
        try renderer.renderOnePass(input, then: toneMapper, into: $0)
      }
    }
    if let onePass { return onePass }
    if rendered.count != input.count { rendered = [UInt8](repeating: 0, count: input.count) }
    let generation = try input.withUnsafeBytes { input in
      try rendered.withUnsafeMutableBytes { try renderer.render(input, into: $0) }
    }
    try rendered.withUnsafeBytes { hdr in
      try output.withUnsafeMutableBytes { try toneMapper.map(hdr, into: $0) }
    }
    return generation
  }

  /// Frame `number` of the rgb24 `pixels` at `size`, with its RGBA and JPEG when asked.
  private func makeFrame(
    _ number: UInt64, from pixels: [UInt8], size: (width: Int, height: Int), rgba: Bool,
    jpeg: Bool
  ) throws -> StudioFrame {
    var frame = StudioFrame(number: number, width: size.width, height: size.height)
    if rgba { frame.rgba = Self.rgba(pixels) }
    if jpeg {
      let layout = FrameLayout(width: size.width, height: size.height, bands: 3)
      frame.jpeg = try pixels.withUnsafeBytes { pixels in
        try Image(wrapping: pixels, layout: layout).encoded(
          as: .jpeg, options: SaveOptions(quality: Self.quality, keepMetadata: false))
      }
    }
    return frame
  }

  /// rgb24 pixels as RGBA, alpha 255 (the layout a page's `ImageData` takes).
  static func rgba(_ rgb: [UInt8]) -> Data {
    let count = rgb.count / 3
    var rgba = Data(count: count * 4)
    rgba.withUnsafeMutableBytes { target in
      rgb.withUnsafeBytes { source in
        guard let to = target.baseAddress?.assumingMemoryBound(to: UInt8.self),
          let from = source.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return }
        for index in 0..<count {
          to[4 * index] = from[3 * index]
          to[4 * index + 1] = from[3 * index + 1]
          to[4 * index + 2] = from[3 * index + 2]
          to[4 * index + 3] = 255
        }
      }
    }
    return rgba
  }
}
