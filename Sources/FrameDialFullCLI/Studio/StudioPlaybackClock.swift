import FrameDialCLI
import Video

/// When each frame of a video playing in `framedial studio` is due, and which frames are passed over,
/// in seconds on a steady clock: frame time `t` of a pass is due at the pass's start plus `t` (real
/// time, as the stream's timestamps say).
///
/// A frame late by more than one interval is passed over (the next one is due already), so a slow
/// moment skips frames rather than showing them late. A frame late by more than ``maximumLateness``
/// means decoding cannot keep up: it is shown at once and the clock restarts from it, so video that
/// decodes slower than real time plays as fast as it decodes instead of freezing.
struct StudioPlaybackClock: Equatable {
  /// Seconds a frame may be late and still be passed over to catch up.
  static let maximumLateness = 0.25

  /// Seconds from one frame to the next (the stream's average rate).
  let interval: Double
  /// When frame time 0 of the current pass is due.
  private(set) var passStart: Double

  /// A clock for frames `interval` seconds apart (1/25 s when it is not a positive number), whose
  /// first pass starts at `start`.
  init(interval: Double, start: Double) {
    self.interval = interval.isFinite && interval > 0 ? interval : 1.0 / 25
    passStart = start
  }

  /// What to do with the frame at `time` seconds into the video, decoded at `now`, and when it is due
  /// (`now` or later for a frame shown).
  mutating func frame(at time: Double, now: Double) -> (
    choice: VideoTranscoder.PlaybackChoice, due: Double
  ) {
    let offset = max(0, time)
    let due = passStart + offset
    if now > due + Self.maximumLateness {
      passStart = now - offset
      return (.show, now)
    }
    return (now > due + interval ? .skip : .show, due)
  }

  /// Starts the next pass one interval after the last frame of this one (at `lastTime`); after a
  /// stall of more than a second, at `now`.
  mutating func loop(lastTime: Double, now: Double) {
    passStart += max(0, lastTime) + interval
    if now > passStart + 1 { passStart = now }
  }
}
