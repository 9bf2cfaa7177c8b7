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
    switch step(for: item) {
    case .finished(let event): return event
    case .write(let work): return write(work)
    }
  }

  /// Writes one file that ``step(for:)`` decided to write: renders it, records it (before the rename:
  /// see ``OutputRecords``) and moves it into place. With several jobs, a failure is retried with the
  /// other workers paused, for the file's own error message.
  public func write(_ work: BatchWrite) -> BatchEvent {
    guard jobs > 1 else { return render(work) }
    let first = gate.shared { render(work) }
    guard first.status == .failed else { return first }
    return gate.alone {
      Vips.discardPendingErrors()
      return render(work)
    }
  }

  /// What is known about `item`'s output: from the records, or without them, whether it exists.
  private func verdict(for item: BatchItem, settings: RenderSettings) -> OutputRecords.Verdict {
    if let records {
      return records.verdict(for: item.outputRelativePath, at: item.output, settings: settings)
    }
    return FileManager.default.fileExists(atPath: item.output) ? .unrecorded : .missing
  }

  /// The options and settings `item` is rendered with: the runner's options in the item's format.
  private func settings(for item: BatchItem) throws -> (StillOptions, RenderSettings) {
    var fileOptions = options
    fileOptions.format = item.format
    return (fileOptions, try RenderSettings(state: state, options: fileOptions))
  }

  /// Decides what happens to `item` without writing anything: an event when it is finished already
  /// (ignored, refused, skipped as done, planned in a dry run), or the write to do. A batch plans on one
  /// machine and may write on others (``write(_:)``), so all that a file's fate depends on before it is
  /// rendered — its output, the records of what made it — is read here.
  public func step(for item: BatchItem) -> BatchStep {
    let start = DispatchTime.now().uptimeNanoseconds
    func event(
      _ status: BatchEvent.Status, _ error: String? = nil, reason: BatchEvent.Reason? = nil
    )
      -> BatchStep
    {
      .finished(
        BatchEvent(
          path: item.input, status: status, output: item.output,
          milliseconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, error: error,
          format: item.isIgnored ? nil : item.format, reason: reason, passedOver: item.passedOver))
    }
    if item.isIgnored { return event(.ignored) }
    if let problem = item.problem { return event(.failed, problem) }
    do {
      // An output that is the input, or a FIFO or device, is refused rather than skipped as existing.
      try OutputTarget.check(item.output, input: item.input)
      let verdict = verdict(for: item, settings: try settings(for: item).1)
      let reason: BatchEvent.Reason?
      switch verdict {
      case .missing: reason = nil
      case .sameSettings: reason = .sameSettings
      case .unrecorded: reason = .noRecord
      case .otherSettings: reason = .otherSettings
      }
      if !overwrite && (verdict == .sameSettings || verdict == .unrecorded) {
        return event(.skipped, reason: reason)
      }
      if dryRun { return event(.planned, reason: overwrite ? nil : reason) }
      let redoes = verdict == .otherSettings && !overwrite
      return .write(BatchWrite(item: item, redoes: redoes, reason: redoes ? reason : nil))
    } catch {
      return event(.failed, Self.message(of: error, about: item))
    }
  }

  /// Renders and writes one file and describes the outcome.
  private func render(_ work: BatchWrite) -> BatchEvent {
    let item = work.item
    let start = DispatchTime.now().uptimeNanoseconds
    func event(_ status: BatchEvent.Status, _ error: String? = nil, warnings: [String] = [])
      -> BatchEvent
    {
      BatchEvent(
        path: item.input, status: status, output: item.output,
        milliseconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, error: error,
        warnings: warnings, format: item.format, reason: status == .failed ? nil : work.reason)
    }
    do {
      let (fileOptions, settings) = try settings(for: item)
      try FileOperations.createFolder((item.output as NSString).deletingLastPathComponent)
      // The time is set and the record written on the complete temporary file, before the rename:
      // a record never names an output that is not whole (see OutputRecords).
      let result = try renderer.renderFile(
        at: item.input, to: item.output, state: state, options: fileOptions
      ) { temporary in
        if keepTime { try FileOperations.copyModificationTime(from: item.input, to: temporary) }
        try records?.record(item.outputRelativePath, file: temporary, settings: settings)
      }
      return event(work.redoes ? .redone : .done, warnings: result.warnings)
    } catch {
      return event(.failed, Self.message(of: error, about: item))
    }
  }

  /// What went wrong with `item`, without the file's name in front (the event names the file already).
  private static func message(of error: Error, about item: BatchItem) -> String {
    var message = ErrorMessage.plain(error)
    while message.hasPrefix(item.input + ": ") { message.removeFirst(item.input.count + 2) }
    return message
  }
}
