import Foundation

/// The progress line of `framedial video` on a terminal: frames done (of those expected), frames per
/// second, and the time left; redrawn at most five times a second.
struct VideoProgress {
  let console: Console
  /// The frames the input announces, when known.
  let expectedFrames: Int?
  /// Whether the line is drawn (standard error is a terminal).
  let shown: Bool
  /// Frames encoded so far.
  private(set) var framesDone = 0
  private let start = ContinuousClock.now
  private var lastDrawn: ContinuousClock.Instant?

  init(console: Console, expectedFrames: Int?, shown: Bool) {
    self.console = console
    self.expectedFrames = expectedFrames
    self.shown = shown
  }

  /// Records that `framesDone` frames are encoded and redraws the line when it is due.
  mutating func update(framesDone: Int) {
    self.framesDone = framesDone
    guard shown else { return }
    let now = ContinuousClock.now
    if let lastDrawn, lastDrawn.duration(to: now) < .milliseconds(200) { return }
    lastDrawn = now
    let elapsed = start.duration(to: now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = seconds > 0 ? Double(framesDone) / seconds : 0
    guard let total = expectedFrames, total >= framesDone else {
      console.progress(String(format: "frame %d, %.1f fps", framesDone, rate))
      return
    }
    let left = rate > 0 ? Double(total - framesDone) / rate : 0
    console.progress(
      String(format: "frame %d/%d, %.1f fps, %.0f s left", framesDone, total, rate, left))
  }

  /// Erases the line.
  func finish() {
    if shown { console.clearProgress() }
  }
}
