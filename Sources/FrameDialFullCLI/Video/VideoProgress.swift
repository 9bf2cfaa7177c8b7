import Foundation
import FrameDialCLI
import JSON
import Measurement

/// The progress of `framedial video`: on a terminal, a line on standard error (frames done of those
/// expected, frames per second, the time left) redrawn at most five times a second; with `--json`, one
/// JSON object per event on standard output, at most two progress events a second and a `done` event.
struct VideoProgress {
  /// How progress is shown.
  enum Style {
    /// Nothing (standard error is not a terminal).
    case none
    /// The progress line on standard error.
    case line
    /// `{"event":"progress",…}` objects on standard output.
    case json
  }

  let console: Console
  /// The frames expected, when known.
  let expectedFrames: Int?
  /// How progress is shown.
  let style: Style
  /// Frames encoded so far.
  private(set) var framesDone = 0
  private let start = ContinuousClock.now
  private var lastShown: ContinuousClock.Instant?

  init(console: Console, expectedFrames: Int?, style: Style) {
    self.console = console
    self.expectedFrames = expectedFrames
    self.style = style
  }

  /// Seconds since the run started.
  var elapsedSeconds: Double {
    Timing.seconds(start.duration(to: .now))
  }

  /// Records that `framesDone` frames are encoded and shows it when it is due.
  mutating func update(framesDone: Int) throws {
    self.framesDone = framesDone
    guard style != .none else { return }
    let now = ContinuousClock.now
    let interval: Duration = style == .json ? .milliseconds(500) : .milliseconds(200)
    if let lastShown, lastShown.duration(to: now) < interval { return }
    lastShown = now
    let seconds = elapsedSeconds
    let rate = seconds > 0 ? Double(framesDone) / seconds : 0
    if style == .json {
      console.outJSON(
        try JSONText.string(
          [
            "event": "progress", "frames": JSONText.Value(framesDone),
            "fps": JSONText.Value(Self.rounded(rate)),
            "seconds": JSONText.Value(Self.rounded(seconds)),
            "total": JSONText.Value(expectedFrames),
          ], .line))
      return
    }
    guard let total = expectedFrames, total >= framesDone else {
      console.progress(String(format: "frame %d, %.1f fps", framesDone, rate))
      return
    }
    let left = rate > 0 ? Double(total - framesDone) / rate : 0
    console.progress(
      String(format: "frame %d/%d, %.1f fps, %.0f s left", framesDone, total, rate, left))
  }

  /// Erases the line, or prints the `done` event (frames, seconds, the output's path, and `notes` and
  /// `warnings` when there are any) with `--json`.
  func finish(output: String, notes: [String] = [], warnings: [String] = []) throws {
    switch style {
    case .none: break
    case .line: console.clearProgress()
    case .json:
      var event: [(String, JSONText.Value)] = [
        ("event", "done"), ("frames", JSONText.Value(framesDone)),
        ("seconds", JSONText.Value(Self.rounded(elapsedSeconds))),
        ("output", JSONText.Value(output)),
      ]
      if !notes.isEmpty { event.append(("notes", JSONText.Value(notes))) }
      if !warnings.isEmpty { event.append(("warnings", JSONText.Value(warnings))) }
      console.outJSON(try JSONText.string(.object(event), .line))
    }
  }

  /// `value` to three decimals.
  private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
