import Foundation
import FrameDial
import Video

/// Plays a video for `framedial studio` on a thread of its own: decodes it in presentation order,
/// scales each frame to the viewfinder and hands it on when its timestamp comes due (real time from
/// the first frame), looping at the end. A frame already late by a frame's interval is decoded but
/// passed over, so a slow machine skips frames rather than showing them late; frames handed on replace
/// each other (the frame loop renders the latest one with the latest state).
final class StudioVideoPlayer: @unchecked Sendable {
  // `@unchecked Sendable`: `transcoder` is used by the init, then by the playing thread only;
  // `stopping` and `started` are guarded by `condition`.

  /// The viewfinder: the first frame, the size every frame is scaled to, the screen layout.
  let source: ViewfinderSource
  private let path: String
  private let transcoder: VideoTranscoder
  /// Seconds from one frame to the next at the stream's average rate (1/25 s when unknown).
  private let interval: Double
  private let condition = NSCondition()
  private var stopping = false
  private var started = false
  private let finished = DispatchSemaphore(value: 0)

  /// Opens the video at `path` and decodes its first frame for the viewfinder of `device`.
  ///
  /// - Throws: ``VideoError`` or ``RenderError`` naming `path` when it cannot be read, has no video
  ///   stream or frame, or cannot be decoded or scaled.
  init(path: String, device: ScreenDevice) throws {
    self.path = path
    transcoder = try VideoTranscoder(path: path)
    transcoder.planarConversion = VideoPlanarConversion.make
    let video = transcoder.source
    interval = video.frameRate > 0 ? 1 / video.frameRate : 1.0 / 25
    let shape = VideoFrameShape(
      codedWidth: video.width, codedHeight: video.height, rotation: video.rotation,
      sampleAspect: video.sampleAspect)
    var first: ViewfinderSource?
    var shown = false
    do {
      _ = try transcoder.play(
        choose: { _ in shown ? .stop : .show },
        show: { frame in
          shown = true
          first = try ViewfinderSource(firstFrame: frame.input, shape: shape, device: device)
        })
    } catch let error as RenderError {
      throw RenderError("\(path): \(error.message)")
    }
    guard let first else { throw VideoError("\(path): has no video frame") }
    source = first
  }

  /// Starts playing from the first frame: `show` gets every frame shown, scaled to ``source``'s size,
  /// when it comes due; `fail` gets the message when decoding fails (playing stops, the last frame
  /// stays). Call once.
  func start(
    show: @escaping @Sendable ([UInt8]) -> Void, fail: @escaping @Sendable (String) -> Void
  ) {
    condition.lock()
    started = true
    condition.unlock()
    let thread = Thread { [self] in
      do {
        try run(show: show)
      } catch {
        fail(ErrorMessage.plain(error))
      }
      finished.signal()
    }
    thread.name = "framedial-studio-video"
    thread.start()
  }

  /// Stops playing (at the next frame, or at once while waiting for one to come due) and waits for
  /// the thread.
  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    let wait = started
    condition.unlock()
    if wait { finished.wait() }
  }

  private var isStopping: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopping
  }

  /// Waits until `due` (seconds on `clock`) or a stop; false on a stop.
  private func wait(until due: ContinuousClock.Instant, clock: ContinuousClock) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !stopping {
      let left = clock.now.duration(to: due)
      guard left > .zero else { return true }
      _ = condition.wait(until: Date().addingTimeInterval(Self.seconds(left)))
    }
    return false
  }

  private static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }

  /// Plays pass after pass until a stop; a video of one frame is shown once.
  private func run(show: @Sendable ([UInt8]) -> Void) throws {
    let clock = ContinuousClock()
    var passStart = clock.now
    while true {
      var lastTime = 0.0
      var frames = 0
      var due = passStart
      let ended = try transcoder.play(
        choose: { time in
          guard !isStopping else { return .stop }
          frames += 1
          lastTime = time
          due = passStart.advanced(by: .seconds(max(0, time)))
          // Late by a whole interval: the next frame is due already, so this one is passed over.
          return clock.now > due.advanced(by: .seconds(interval)) ? .skip : .show
        },
        show: { frame in
          let pixels: [UInt8]
          do {
            pixels = try source.videoPixels(of: frame.input)
          } catch let error as RenderError {
            throw RenderError("\(path): \(error.message)")
          }
          guard wait(until: due, clock: clock) else { return }
          show(pixels)
        })
      guard ended, frames > 1 else { return }
      // The next pass starts one interval after the last frame; after a long stall, from now.
      passStart = passStart.advanced(by: .seconds(lastTime + interval))
      if clock.now > passStart.advanced(by: .seconds(1)) { passStart = clock.now }
    }
  }
}
