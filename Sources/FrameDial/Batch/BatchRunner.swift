import Controls
import Foundation
import Synchronization
import Vips

/// Runs a batch: `jobs` workers each take the next file, render it with one ``StillRenderer`` (plans
/// are shared), and write it atomically. A failure is reported and the batch goes on.
///
/// With more than one job, a file that fails is tried once more with the other workers paused: libvips
/// keeps one error buffer for the process, and this way each failure is reported with its own message
/// (the one `--jobs 1` would give), never with another file's.
///
/// Memory stays bounded: at most `jobs` images are in flight, each read sequentially (strip by strip)
/// when its plan allows, and libvips's own threads are shared out between the jobs.
public final class BatchRunner: Sendable {
  /// The control values every file gets.
  public let state: ControlState
  /// Format quality and load options.
  public let options: StillOptions
  /// Parallel workers.
  public let jobs: Int
  /// Replace outputs that exist instead of skipping them.
  public let overwrite: Bool
  /// Report what would be written, write nothing.
  public let dryRun: Bool
  /// Give each output its input's modification time.
  public let keepTime: Bool
  /// What made the outputs already there, and where this run records what it writes; nil skips every
  /// existing output, as unrecorded.
  public let records: OutputRecords?
  private let renderer = StillRenderer()
  private let gate = ExclusiveGate()

  /// Creates a runner.
  public init(
    state: ControlState, options: StillOptions = StillOptions(), jobs: Int = 1,
    overwrite: Bool = false,
    dryRun: Bool = false, keepTime: Bool = false, records: OutputRecords? = nil
  ) {
    self.records = records
    self.state = state
    self.options = options
    self.jobs = max(1, jobs)
    self.overwrite = overwrite
    self.dryRun = dryRun
    self.keepTime = keepTime
  }

  /// Processes `items`, calling `report` once per file (from worker threads, one call at a time), and
  /// stops taking new files once `shouldStop` returns true. Returns when every started file is finished.
  public func run(
    _ items: [BatchItem], shouldStop: @escaping @Sendable () -> Bool = { false },
    report: @escaping @Sendable (BatchEvent) -> Void
  ) -> BatchSummary {
    let start = DispatchTime.now().uptimeNanoseconds
    let next = Mutex(0)
    let summary = Mutex(BatchSummary())
    let group = DispatchGroup()
    let workers = min(jobs, max(1, items.count))
    for _ in 0..<workers {
      group.enter()
      let thread = Thread { [self] in
        while !shouldStop() {
          let index: Int? = next.withLock { value in
            guard value < items.count else { return nil }
            defer { value += 1 }
            return value
          }
          guard let index else { break }
          let event = processReportingOwnError(items[index])
          summary.withLock { counts in
            counts.count(event)
            report(event)
          }
        }
        group.leave()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    group.wait()
    return summary.withLock { counts in
      var result = counts
      result.notStarted = items.count - result.finished
      result.interrupted = result.notStarted > 0
      result.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      return result
    }
  }

  /// Processes one file; with several jobs, a failure is retried alone for its own error message.
  func processReportingOwnError(_ item: BatchItem) -> BatchEvent {
    guard jobs > 1 else { return process(item) }
    let first = gate.shared { process(item) }
    guard first.status == .failed, item.problem == nil else { return first }
    return gate.alone {
      Vips.discardPendingErrors()
      return process(item)
    }
  }

  /// What is known about `item`'s output: from the records, or without them, whether it exists.
  private func verdict(for item: BatchItem, settings: RenderSettings) -> OutputRecords.Verdict {
    if let records {
      return records.verdict(for: item.outputRelativePath, at: item.output, settings: settings)
    }
    return FileManager.default.fileExists(atPath: item.output) ? .unrecorded : .missing
  }

  /// Processes one file and describes the outcome.
  func process(_ item: BatchItem) -> BatchEvent {
    let start = DispatchTime.now().uptimeNanoseconds
    func event(
      _ status: BatchEvent.Status, _ error: String? = nil, warnings: [String] = [],
      reason: BatchEvent.Reason? = nil
    ) -> BatchEvent {
      BatchEvent(
        path: item.input, status: status, output: item.output,
        milliseconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, error: error,
        warnings: warnings, format: item.isIgnored ? nil : item.format, reason: reason)
    }
    if item.isIgnored {
      var ignored = event(.ignored)
      ignored.passedOver = item.passedOver
      return ignored
    }
    if let problem = item.problem { return event(.failed, problem) }
    do {
      // An output that is the input, or a FIFO or device, is refused rather than skipped as existing.
      try OutputTarget.check(item.output, input: item.input)
      var fileOptions = options
      fileOptions.format = item.format
      let settings = try RenderSettings(state: state, options: fileOptions)
      let verdict = verdict(for: item, settings: settings)
      let reason: BatchEvent.Reason?
      switch verdict {
      case .missing: reason = nil
      case .sameSettings: reason = .sameSettings
      case .unrecorded: reason = .noRecord
      case .otherSettings: reason = .otherSettings
      }
      let redoes = verdict == .otherSettings && !overwrite
      if !overwrite && (verdict == .sameSettings || verdict == .unrecorded) {
        return event(.skipped, reason: reason)
      }
      if dryRun { return event(.planned, reason: overwrite ? nil : reason) }
      try FileOperations.createFolder((item.output as NSString).deletingLastPathComponent)
      // The time is set and the record written on the complete temporary file, before the rename:
      // a record never names an output that is not whole (see OutputRecords).
      let result = try renderer.renderFile(
        at: item.input, to: item.output, state: state, options: fileOptions
      ) { temporary in
        if keepTime { try FileOperations.copyModificationTime(from: item.input, to: temporary) }
        try records?.record(item.outputRelativePath, file: temporary, settings: settings)
      }
      return event(
        redoes ? .redone : .done, warnings: result.warnings, reason: redoes ? reason : nil)
    } catch {
      // The event names the file already; keep only what went wrong.
      var message = ErrorMessage.plain(error)
      while message.hasPrefix(item.input + ": ") { message.removeFirst(item.input.count + 2) }
      return event(.failed, message)
    }
  }
}
