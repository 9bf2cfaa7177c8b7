/// What happened to one file of a batch.
public struct BatchEvent: Sendable, Equatable {
  /// The outcome.
  public enum Status: String, Sendable {
    /// Written.
    case done
    /// Not written because the output exists (a rerun resumes).
    case skipped
    /// Failed; ``BatchEvent/error`` says why.
    case failed
    /// Would be written (dry run).
    case planned
    /// Not an image (a video, a sidecar): not processed.
    case ignored
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
}

/// The counts at the end of a batch.
public struct BatchSummary: Sendable, Equatable {
  /// Files written.
  public var done = 0
  /// Files skipped because their output existed.
  public var skipped = 0
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

  mutating func count(_ status: BatchEvent.Status) {
    switch status {
    case .done: done += 1
    case .skipped: skipped += 1
    case .failed: failed += 1
    case .planned: planned += 1
    case .ignored: ignored += 1
    }
  }
}
