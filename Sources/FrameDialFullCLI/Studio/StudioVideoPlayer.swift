import Foundation
import FrameDial
import FrameDialCLI
import Measurement
import RowKernels
import Video

/// Plays a video for `framedial studio` on a thread of its own: decodes it in presentation order,
/// scales each frame to the viewfinder and hands it on when its timestamp comes due (real time from
/// the first frame), looping at the end. Late frames are decoded but passed over
/// (``StudioPlaybackClock``); frames handed on replace each other (the frame loop renders the latest
/// one with the latest state). While nobody watches (no page takes frames, no `GET /frame.jpg` waits)
/// for longer than ``idleAfter``, it pauses on the frame it shows and uses no CPU; it goes on from
/// there when someone watches again. HDR video (HLG, PQ) is handed on as its 16-bit codes, for the
/// frame loop to render in its own encoding and tone-map to SDR (``toneMapper(width:height:)``), as
/// `video --hdr sdr` does; its 10-bit 4:2:0 frames are played as their decoded planes and scaled
/// before they are converted (``ViewfinderPlaneScaler``).
final class StudioVideoPlayer: @unchecked Sendable {
  // `@unchecked Sendable`: `transcoder` is used by the init, then by the playing thread only;
  // `stopping`, `started`, `watched` and `lastWatched` are guarded by `condition`.

  /// The viewfinder: the first frame, the size every frame is scaled to, the screen layout.
  let source: ViewfinderSource
  private let path: String
  private let transcoder: VideoTranscoder
  /// The scaler of HDR frames played as planes, made for the first such frame's layout.
  private var planeScaler: ViewfinderPlaneScaler?
  /// Seconds from one frame to the next at the stream's average rate (0 when unknown).
  private let interval: Double
  private let condition = NSCondition()
  private var stopping = false
  private var started = false
  /// Someone takes frames now (``watch(_:)``).
  private var watched = false
  /// When someone last took frames (the start counts as such).
  private var lastWatched = ContinuousClock.now
  /// How long the video plays on with nobody watching before it pauses.
  static let idleAfter = Duration.seconds(2)
  private let finished = DispatchSemaphore(value: 0)

  /// Opens the video at `path` and decodes its first frame for the viewfinder of `device`.
  ///
  /// - Throws: ``VideoError`` or ``RenderError`` naming `path` when it cannot be read, has no video
  ///   stream or frame, or cannot be decoded or scaled.
  init(path: String, device: ScreenDevice) throws {
    self.path = path
    FFmpegLog.route(prefix: "framedial studio")
    transcoder = try VideoTranscoder(path: path)
    transcoder.planarConversion = VideoPlanarConversion.make
    let video = transcoder.source
    interval = video.frameRate > 0 ? 1 / video.frameRate : 0
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
          first = try ViewfinderSource(
            firstFrame: frame.input, shape: shape, device: device,
            encoding: VideoOptions.encoding(of: video))
        })
    } catch let error as RenderError {
      throw RenderError("\(path): \(error.message)")
    }
    guard let first else { throw VideoError("\(path): has no video frame") }
    source = first
    transcoder.playsPlanes = first.sampleBytes == 2
  }

  /// Makes the tone mapper of this HDR video's frames rendered at a width and height (see
  /// ``StudioFrameLoop``), throwing ``VideoError`` for a size it cannot map; nil for SDR
  /// video, whose frames are shown as they are.
  var toneMapper: ((Int, Int) throws -> RGBToneMapper)? {
    guard source.sampleBytes == 2 else { return nil }
    return { [transcoder] width, height in
      try transcoder.rgbToneMapper(width: width, height: height)
    }
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

  /// Tells the player whether someone takes frames now: it pauses once nobody has for ``idleAfter``,
  /// and goes on when someone does again.
  func watch(_ watching: Bool) {
    condition.lock()
    if watched && !watching { lastWatched = .now }
    watched = watching
    condition.broadcast()
    condition.unlock()
  }

  /// Waits while nobody has watched for ``idleAfter``; false on a stop.
  private func waitForWatchers() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !stopping, !watched, ContinuousClock.now - lastWatched > Self.idleAfter {
      condition.wait()
    }
    return !stopping
  }

  private var isStopping: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopping
  }

  /// Waits until `due` seconds after `origin` on `clock`, or a stop; false on a stop.
  private func wait(
    until due: Double, from origin: ContinuousClock.Instant, clock: ContinuousClock
  ) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !stopping {
      let left = due - Timing.seconds(origin.duration(to: clock.now))
      guard left > 0 else { return true }
      _ = condition.wait(until: Date().addingTimeInterval(left))
    }
    return false
  }

  /// The scaler of frames played as planes of `format` (made once, on the playing thread).
  private func scaler(for format: PlanarFormat) throws -> ViewfinderPlaneScaler {
    let layout = VideoPlanarConversion.layout(of: format)
    if let planeScaler, planeScaler.input == layout { return planeScaler }
    let made = try ViewfinderPlaneScaler(viewfinder: source, input: layout)
    planeScaler = made
    return made
  }

  /// Plays pass after pass until a stop; a video of one frame is shown once.
  private func run(show: @Sendable ([UInt8]) -> Void) throws {
    let clock = ContinuousClock()
    let origin = clock.now
    func now() -> Double { Timing.seconds(origin.duration(to: clock.now)) }
    var timing = StudioPlaybackClock(interval: interval, start: 0)
    // Two picture buffers in turn: by the time one is written again the frame loop has usually let
    // it go, so its memory is reused (one still shared is copied, never overwritten under the loop).
    var buffers: ([UInt8], [UInt8]) = ([], [])
    while true {
      var lastTime = 0.0
      var frames = 0
      var due = 0.0
      let ended = try transcoder.play(
        choose: { time in
          // A paused video goes on where it stopped: the clock restarts from its next frame.
          guard !isStopping, waitForWatchers() else { return .stop }
          frames += 1
          lastTime = time
          let decided = timing.frame(at: time, now: now())
          due = decided.due
          return decided.choice
        },
        show: { frame in
          swap(&buffers.0, &buffers.1)
          do {
            if let decoded = frame.planes {
              try scaler(for: decoded.format).pixels(
                of: zip(decoded.planes, decoded.strides).map { YUVPlane($0, stride: $1) },
                into: &buffers.0)
            } else {
              try source.videoPixels(of: frame.input, into: &buffers.0)
            }
          } catch let error as RenderError {
            throw RenderError("\(path): \(error.message)")
          }
          guard wait(until: due, from: origin, clock: clock) else { return }
          show(buffers.0)
        })
      guard ended, frames > 1 else { return }
      timing.loop(lastTime: lastTime, now: now())
    }
  }
}
