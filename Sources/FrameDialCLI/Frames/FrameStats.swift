import Foundation
import Measurement

/// Timing of a `frames` run for `--stats`: frames per second over the whole run (reading, rendering
/// and writing) and the render time of each frame.
struct FrameStats {
  private let start = ContinuousClock.now
  private var renderMilliseconds: [Double] = []

  /// The number of frames recorded.
  var frames: Int { renderMilliseconds.count }

  /// Records one frame that took `duration` to render.
  mutating func record(render duration: Duration) {
    renderMilliseconds.append(Timing.milliseconds(duration))
  }

  /// The render time in milliseconds below which `fraction` of the frames fall (nearest rank), or 0
  /// when no frame was recorded.
  func percentile(_ fraction: Double) -> Double {
    guard !renderMilliseconds.isEmpty else { return 0 }
    return Statistics.percentile(fraction * 100, sorted: renderMilliseconds.sorted())
  }

  /// One line for standard error, e.g.
  /// `frames: 120 frames, 58.2 frames/s; render p50 16.9 ms, p99 18.4 ms per frame`.
  func summary(now: ContinuousClock.Instant = .now) -> String {
    let seconds = Timing.seconds(from: start, to: now)
    let rate = seconds > 0 ? Double(frames) / seconds : 0
    return "frames: \(frames) frame\(frames == 1 ? "" : "s"), \(Self.format(rate)) frames/s; "
      + "render p50 \(Self.format(percentile(0.5))) ms, p99 \(Self.format(percentile(0.99))) ms "
      + "per frame"
  }

  private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
