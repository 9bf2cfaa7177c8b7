import Foundation
import Vips

/// The JSON forms of a batch's events, writes and summary: what `batch --json` prints, and what the C
/// API hands between the machine that plans a batch and those that write its files.
extension BatchEvent {
  /// The event as `batch --json` prints it for a file: `event` ("file"), `path`, `status`, `output`,
  /// `milliseconds` (to a tenth), and when they apply `error`, `reason`, `passedOver`, `warnings`.
  public var jsonObject: [String: Any] {
    var object: [String: Any] = [
      "event": "file", "path": path, "status": status.rawValue, "output": output,
      "milliseconds": (milliseconds * 10).rounded() / 10,
    ]
    if let error { object["error"] = error }
    if let reason { object["reason"] = reason.rawValue }
    if let passedOver { object["passedOver"] = passedOver }
    if !warnings.isEmpty { object["warnings"] = warnings }
    return object
  }

  /// The event of a JSON object of ``jsonObject``'s keys, with the output's `format` when it has one;
  /// nil when `path`, `status` or `output` is missing or not one of the known values.
  public init?(jsonObject object: [String: Any]) {
    guard let path = object["path"] as? String, let output = object["output"] as? String,
      let status = (object["status"] as? String).flatMap(Status.init(rawValue:))
    else { return nil }
    self.init(
      path: path, status: status, output: output,
      milliseconds: (object["milliseconds"] as? NSNumber)?.doubleValue ?? 0,
      error: object["error"] as? String, warnings: object["warnings"] as? [String] ?? [],
      format: (object["format"] as? String).flatMap(ImageFormat.init(rawValue:)),
      reason: (object["reason"] as? String).flatMap(Reason.init(rawValue:)),
      passedOver: object["passedOver"] as? String)
  }
}

extension BatchWrite {
  /// The write as a JSON object: the item's `input`, `relativePath`, `output`, `outputRelativePath`,
  /// `format`, and `redoes` with its `reason`.
  public var jsonObject: [String: Any] {
    var object: [String: Any] = [
      "input": item.input, "relativePath": item.relativePath, "output": item.output,
      "outputRelativePath": item.outputRelativePath, "format": item.format.rawValue,
      "redoes": redoes,
    ]
    if let reason { object["reason"] = reason.rawValue }
    return object
  }

  /// The write of a JSON object of ``jsonObject``'s keys.
  ///
  /// - Throws: ``RenderError`` naming the key that is missing or wrong.
  public init(jsonObject object: [String: Any]) throws {
    func text(_ key: String) throws -> String {
      guard let value = object[key] as? String, !value.isEmpty else {
        throw RenderError("the work item's \"\(key)\" must be a non-empty string")
      }
      return value
    }
    guard let format = ImageFormat(rawValue: try text("format")) else {
      throw RenderError("the work item's \"format\" is not an output format")
    }
    let reason = try (object["reason"] as? String).map { name in
      guard let reason = BatchEvent.Reason(rawValue: name) else {
        throw RenderError("the work item's \"reason\" is not a reason")
      }
      return reason
    }
    self.init(
      item: BatchItem(
        input: try text("input"), relativePath: try text("relativePath"),
        output: try text("output"),
        outputRelativePath: try text("outputRelativePath"), format: format),
      redoes: object["redoes"] as? Bool ?? false, reason: reason)
  }
}

extension BatchSummary {
  /// The summary as `batch --json` prints it: `event` ("summary"), the counts, `ignoredByExtension`,
  /// `notStarted`, `interrupted`, `seconds`, `imagesPerSecond` (written files a second), and `note` when
  /// one is given.
  public func jsonObject(note: String? = nil) -> [String: Any] {
    var object: [String: Any] = [
      "event": "summary", "done": done, "redone": redone, "skipped": skipped,
      "unrecorded": unrecorded, "failed": failed, "planned": planned, "ignored": ignored,
      "ignoredByExtension": ignoredByExtension, "notStarted": notStarted,
      "interrupted": interrupted, "seconds": (seconds * 1000).rounded() / 1000,
      "imagesPerSecond": (imagesPerSecond * 100).rounded() / 100,
    ]
    if let note { object["note"] = note }
    return object
  }

  /// Files written (done and redone) a second of wall-clock time.
  public var imagesPerSecond: Double {
    seconds > 0 ? Double(done + redone) / seconds : 0
  }

  /// The note said when HEIC or AVIF outputs dominated the run (``slowFormatsDominate``), with the
  /// fix; nil otherwise.
  public var slowFormatNote: String? {
    guard slowFormatsDominate else { return nil }
    let names = slowFormats.map { $0.rawValue.uppercased() }.sorted().joined(separator: " and ")
    let share =
      writingMilliseconds > 0
      ? String(
        format: "took %.0f %% of the time spent writing",
        100 * slowFormatMilliseconds / writingMilliseconds)
      : "are \(slowFormatPlanned) of the \(planned) files planned"
    return "\(names) outputs \(share); their software encoders take many times as long as "
      + "JPEG's (HEIC about 20 times its CPU time; --format jpeg writes JPEGs instead)"
  }
}
