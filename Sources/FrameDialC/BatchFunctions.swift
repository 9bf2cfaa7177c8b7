import Foundation
import FrameDial
import JSON
import Synchronization
import Vips

/// The runners that write the files of batches planned by `framedial_batch_plan`, one per batch settings
/// text and number of files rendered at once, so a process appends to one record file per batch. A few
/// are kept (a process may serve several batches), the oldest forgotten first.
private let batchRunners = Mutex<[(key: String, runner: BatchRunner)]>([])
private let keptBatchRunners = 4

/// The runner for the batch settings `json`, rendering `concurrent` files at once in this process.
private func batchRunner(_ json: UnsafePointer<CChar>?, concurrent: Int) throws -> BatchRunner {
  let key = "\(concurrent)\n" + (try CString.read(json, "the batch JSON"))
  if let found = batchRunners.withLock({ $0.first { $0.key == key }?.runner }) { return found }
  let settings = try BatchRequestJSON.Settings(json: json)
  let runner = BatchRunner(
    state: settings.state, options: settings.options, jobs: concurrent,
    overwrite: settings.overwrite, keepTime: settings.keepTime,
    records: OutputRecords(recordingInto: settings.outputFolder))
  return batchRunners.withLock { runners in
    if let found = runners.first(where: { $0.key == key }) { return found.runner }
    runners.append((key, runner))
    if runners.count > keptBatchRunners { runners.removeFirst() }
    return runner
  }
}

/// One JSON object as text (``JSONText/Format/line``), copied for the caller.
private func jsonCopy(_ value: JSONText.Value) throws -> UnsafeMutablePointer<CChar>? {
  CString.copy(try JSONText.string(value, .line))
}

/// A file event as the C API hands it out: `batch --json`'s file event with the output's `format`.
private func eventObject(_ event: BatchEvent) -> JSONText.Value {
  guard case .object(var members) = event.jsonValue, let format = event.format else {
    return event.jsonValue
  }
  members.append(("format", .string(format.rawValue)))
  return .object(members)
}

/// `framedial_batch_plan`: walks and names a batch as `framedial batch` does and decides each file's
/// fate from the output folder's records; returns the files finished already (as events) and the writes
/// to do, with the batch's settings for `framedial_batch_render`.
@_cdecl("framedial_batch_plan")
public func cBatchPlan(
  _ request: UnsafePointer<CChar>?, _ plan: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error, into: plan, named: "plan") {
    let batch = try BatchRequestJSON(json: request)
    let settings = batch.settings
    try Library.start()
    let items = try batch.layout.items()
    let records = OutputRecords(outputFolder: settings.outputFolder)
    if !settings.dryRun {
      try batch.layout.prepareOutputFolder()
      records.compact()
    }
    let runner = BatchRunner(
      state: settings.state, options: settings.options, overwrite: settings.overwrite,
      dryRun: settings.dryRun, keepTime: settings.keepTime, records: records)
    var finished: [JSONText.Value] = []
    var writes: [JSONText.Value] = []
    for item in items {
      switch runner.step(for: item) {
      case .finished(let event): finished.append(eventObject(event))
      case .write(let work): writes.append(work.jsonValue)
      }
    }
    return try jsonCopy(
      .object([
        ("batch", settings.jsonValue), ("finished", .array(finished)), ("writes", .array(writes)),
      ]))
  }
}

/// `framedial_batch_render`: renders and writes one file of a planned batch, atomically and with its
/// record, and returns its event (a failed file is an event, not an error).
@_cdecl("framedial_batch_render")
public func cBatchRender(
  _ batch: UnsafePointer<CChar>?, _ write: UnsafePointer<CChar>?, _ concurrent: Int32,
  _ event: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error, into: event, named: "event") {
    guard (1...256).contains(concurrent) else {
      throw CallError(
        .invalidArgument,
        "concurrent must be 1 … 256 (the files rendered at once), not \(concurrent)")
    }
    let work: BatchWrite
    do {
      work = try BatchWrite(json: try BatchRequestJSON.object(write, "the work item JSON"))
    } catch let failure as RenderError {
      throw CallError(.invalidOptions, failure.message)
    }
    let runner = try batchRunner(batch, concurrent: Int(concurrent))
    try Library.start()
    // One image per render is faster than many threads per image: share libvips's threads out, as
    // `framedial batch --jobs` does, unless VIPS_CONCURRENCY asks for a number.
    let requested = ProcessInfo.processInfo.environment["VIPS_CONCURRENCY"].flatMap { Int($0) }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    try Vips.setThreads(
      requested.flatMap { $0 > 0 ? $0 : nil } ?? max(1, cores / Int(concurrent)))
    return try jsonCopy(eventObject(runner.write(work)))
  }
}

/// `framedial_batch_finish`: removes what writers of this machine that have ended left in the folders
/// a run wrote into, and returns the summary event of `batch --json` for the run's file events.
@_cdecl("framedial_batch_finish")
public func cBatchFinish(
  _ run: UnsafePointer<CChar>?, _ summary: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error, into: summary, named: "summary") {
    let members = try BatchRequestJSON.object(run, "the run JSON")
    guard case .array(let files)? = members["files"], files.allSatisfy({ $0.members != nil })
    else {
      throw CallError(.invalidOptions, "\"files\" must be a list of file events")
    }
    var counts = BatchSummary()
    for (index, object) in files.enumerated() {
      guard let event = BatchEvent(json: object) else {
        throw CallError(
          .invalidOptions, "file event \(index + 1) has no path, output or known status")
      }
      counts.count(event)
    }
    let notStarted = BatchRequestJSON.integer(members, "notStarted") ?? 0
    guard notStarted >= 0 else {
      throw CallError(.invalidOptions, "\"notStarted\" must not be negative")
    }
    counts.notStarted = notStarted
    counts.interrupted = notStarted > 0
    counts.seconds = max(0, members["seconds"]?.number ?? 0)
    guard let folders = members["folders"].map({ $0.strings }) ?? [] else {
      throw CallError(.invalidOptions, "\"folders\" must be a list of the folders written into")
    }
    // A worker killed mid-file leaves its temporary file; the file itself was written again elsewhere.
    for folder in Set(folders) { AtomicFile.removeStaleTemporaries(in: folder) }
    let notes = try BatchRequestJSON.flag(members, "notesSlowFormats")
    return try jsonCopy(counts.jsonValue(note: notes ? counts.slowFormatNote : nil))
  }
}
