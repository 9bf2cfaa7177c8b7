/// What happened to one file of a batch.
public struct BatchEvent: Sendable, Equatable {
  /// The outcome.
  public enum Status: String, Sendable {
    /// Written.
    case done
    /// Written over an output that was made with other settings.
    case redone
    /// Not written because the output exists (a rerun resumes); ``BatchEvent/reason`` says whether it
    /// was made with the same settings or nothing records what made it.
    case skipped
    /// Failed; ``BatchEvent/error`` says why.
    case failed
    /// Would be written (dry run).
    case planned
    /// Not an image (a video, a sidecar): not processed.
    case ignored
  }

  /// What the output folder's records say about an existing output (``OutputRecords``).
  public enum Reason: String, Sendable {
    /// Made with the same settings.
    case sameSettings = "same-settings"
    /// Made with other settings.
    case otherSettings = "other-settings"
    /// No record says what made it (made by hand, by an older FrameDial, or changed since).
    case noRecord = "no-record"
  }

  /// The input file.
  public var path: String
  /// The outcome.
  public var status: Status
  /// The output file.
  public var output: String
  /// Milliseconds spent on the file.
  public var milliseconds: Double
  /// Why it failed.
  public var error: String?
  /// What was written with a loss (metadata the output format cannot hold), one sentence each.
  public var warnings: [String] = []
  /// Why an existing output was skipped or written again (nil when there was none, or with
  /// `--overwrite`).
  public var reason: Reason?
}

/// The counts at the end of a batch.
public struct BatchSummary: Sendable, Equatable {
  /// Files written where there was no output (or with `--overwrite`).
  public var done = 0
  /// Files written again because their output was made with other settings.
  public var redone = 0
  /// Files skipped because their output existed.
  public var skipped = 0
  /// Of ``skipped``, the outputs no record describes (`--overwrite` redoes them).
  public var unrecorded = 0
  /// Files that failed.
  public var failed = 0
  /// Files a dry run would write.
  public var planned = 0
  /// Files that are not images (videos, sidecars), passed over.
  public var ignored = 0
  /// Files never started because the batch was interrupted.
  public var notStarted = 0
  /// Wall-clock seconds.
  public var seconds = 0.0
  /// True when the batch stopped early on request.
  public var interrupted = false

  /// Creates an empty summary.
  public init() {}

  /// Every file that was finished one way or another.
  var finished: Int { done + redone + skipped + failed + planned + ignored }

  mutating func count(_ event: BatchEvent) {
    switch event.status {
    case .done: done += 1
    case .redone: redone += 1
    case .skipped:
      skipped += 1
      if event.reason == .noRecord { unrecorded += 1 }
    case .failed: failed += 1
    case .planned: planned += 1
    case .ignored: ignored += 1
    }
  }
}
