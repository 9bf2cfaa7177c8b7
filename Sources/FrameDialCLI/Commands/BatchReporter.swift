import Foundation
import FrameDial
import JSON
import Synchronization

/// Prints a batch's progress: one JSON object per file and a summary (`--json`), or plain lines, plus a
/// progress line (done/total, images per second, time left) when standard error is a terminal.
final class BatchReporter: Sendable {
  /// How events are printed.
  enum Style: Sendable { case plain, json }

  private let style: Style
  private let total: Int
  private let console: Console
  private let showsProgress: Bool
  /// List ignored files (videos, sidecars) one by one; otherwise they are only counted.
  private let listsIgnored: Bool
  /// Say once, at the end, when HEIC or AVIF outputs dominated the run (false when `--format` chose
  /// the format).
  private let notesSlowFormats: Bool
  private let state: Mutex<(finished: Int, started: UInt64)>

  init(
    style: Style, total: Int, console: Console, showsProgress: Bool, listsIgnored: Bool = false,
    notesSlowFormats: Bool = false
  ) {
    self.style = style
    self.listsIgnored = listsIgnored
    self.notesSlowFormats = notesSlowFormats
    self.total = total
    self.console = console
    self.showsProgress = showsProgress
    state = Mutex((0, DispatchTime.now().uptimeNanoseconds))
  }

  /// Reports one file.
  func report(_ event: BatchEvent) {
    let (finished, elapsed) = state.withLock { value -> (Int, Double) in
      value.finished += 1
      return (value.finished, Double(DispatchTime.now().uptimeNanoseconds - value.started) / 1e9)
    }
    if showsProgress { console.clearProgress() }
    switch style {
    case _ where event.status == .ignored && !listsIgnored && event.passedOver == nil:
      break
    case .json:
      console.outJSON((try? JSONText.string(event.jsonValue, .line)) ?? "{}")
    case .plain:
      switch event.status {
      case .failed:
        console.err("failed  \(event.path): \(event.error ?? "unknown error")")
      case .done:
        console.out(
          "done    \(event.path) → \(event.output) (\(Int(event.milliseconds.rounded())) ms)"
            + event.warnings.map { "; warning: \($0)" }.joined())
      case .redone:
        console.out(
          "redone  \(event.path) → \(event.output) (made with other settings; "
            + "\(Int(event.milliseconds.rounded())) ms)"
            + event.warnings.map { "; warning: \($0)" }.joined())
      case .skipped:
        let known =
          event.reason == .noRecord
          ? "exists, with no record of the settings that made it"
          : "exists, made with these settings"
        console.out(
          "skipped \(event.path) (\(event.output) \(known); \(BatchCommand.overwrite) replaces it)")
      case .planned:
        let again = event.reason == .otherSettings ? ", made with other settings" : ""
        console.out("would write \(event.output) (from \(event.path)\(again))")
      case .ignored:
        console.out("ignored \(event.path) (\(event.passedOver ?? "not an image"))")
      }
    }
    if showsProgress && finished < total {
      let rate = elapsed > 0 ? Double(finished) / elapsed : 0
      let left = rate > 0 ? Double(total - finished) / rate : 0
      console.progress(
        String(format: "[%d/%d] %.1f images/s, %.0f s left", finished, total, rate, left))
    }
  }

  /// Reports the totals.
  func finish(_ summary: BatchSummary) {
    if showsProgress { console.clearProgress() }
    let rate = summary.imagesPerSecond
    let note = notesSlowFormats ? summary.slowFormatNote : nil
    switch style {
    case .json:
      console.outJSON((try? JSONText.string(summary.jsonValue(note: note), .line)) ?? "{}")
    case .plain:
      var line =
        "\(summary.done) done, "
        + (summary.redone > 0 ? "\(summary.redone) redone (made with other settings), " : "")
        + "\(summary.skipped) skipped, \(summary.failed) failed"
        + (summary.ignored > 0
          ? ", \(summary.ignored) ignored (\(summary.ignoredKindsText()))" : "")
        + String(format: " in %.1f s (%.1f images/s)", summary.seconds, rate)
      if summary.planned > 0 { line = "\(summary.planned) would be written, " + line }
      if summary.unrecorded > 0 {
        line +=
          "; \(summary.unrecorded) skipped "
          + (summary.unrecorded == 1 ? "output has" : "outputs have")
          + " no record of the settings that made "
          + (summary.unrecorded == 1 ? "it" : "them")
          + " (made by hand or by an older FrameDial): \(BatchCommand.overwrite) redoes "
          + (summary.unrecorded == 1 ? "it" : "them")
      }
      if summary.interrupted {
        line += "; interrupted, \(summary.notStarted) not started (a rerun resumes)"
      }
      console.err(line)
      if let note { console.err("note: " + note) }
    }
  }
}
