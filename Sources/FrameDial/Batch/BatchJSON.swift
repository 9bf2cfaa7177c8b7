import Foundation
import JSON
import Vips

/// The JSON forms of a batch's events, writes and summary: what `batch --json` prints, and what the C
/// API hands between the machine that plans a batch and those that write its files.
extension BatchEvent {
  /// The event as `batch --json` prints it for a file: `event` ("file"), `path`, `status`, `output`,
  /// `milliseconds` (to a tenth), and when they apply `error`, `reason`, `passedOver`, `warnings`.
  public var jsonValue: JSONText.Value {
    var members: [(String, JSONText.Value)] = [
      ("event", .string("file")), ("path", .string(path)), ("status", .string(status.rawValue)),
      ("output", .string(output)), ("milliseconds", .number((milliseconds * 10).rounded() / 10)),
    ]
    if let error { members.append(("error", .string(error))) }
    if let reason { members.append(("reason", .string(reason.rawValue))) }
    if let passedOver { members.append(("passedOver", .string(passedOver))) }
    if !warnings.isEmpty { members.append(("warnings", .array(warnings.map { .string($0) }))) }
    return .object(members)
  }

  /// The event of a JSON object of ``jsonValue``'s keys, with the output's `format` when it has one;
  /// nil when `path`, `status` or `output` is missing or not one of the known values.
  public init?(json value: JSONValue) {
    guard let path = value["path"]?.string, let output = value["output"]?.string,
      let status = value["status"]?.string.flatMap(Status.init(rawValue:))
    else { return nil }
    self.init(
      path: path, status: status, output: output,
      milliseconds: value["milliseconds"]?.number ?? 0, error: value["error"]?.string,
      warnings: value["warnings"]?.strings ?? [],
      format: value["format"]?.string.flatMap(ImageFormat.init(rawValue:)),
      reason: value["reason"]?.string.flatMap(Reason.init(rawValue:)),
      passedOver: value["passedOver"]?.string)
  }

  /// The event as a Foundation object of ``jsonValue``'s keys.
  @available(*, deprecated, renamed: "jsonValue")
  public var jsonObject: [String: Any] { foundationObject(jsonValue) }

  /// The event of a Foundation object of ``jsonValue``'s keys; see ``init(json:)``.
  @available(*, deprecated, renamed: "init(json:)")
  public init?(jsonObject object: [String: Any]) {
    guard let value = readFoundationObject(object) else { return nil }
    self.init(json: value)
  }
}

extension BatchWrite {
  /// The write as a JSON object: the item's `input`, `relativePath`, `output`, `outputRelativePath`,
  /// `format`, and `redoes` with its `reason`.
  public var jsonValue: JSONText.Value {
    var members: [(String, JSONText.Value)] = [
      ("input", .string(item.input)), ("relativePath", .string(item.relativePath)),
      ("output", .string(item.output)), ("outputRelativePath", .string(item.outputRelativePath)),
      ("format", .string(item.format.rawValue)), ("redoes", .bool(redoes)),
    ]
    if let reason { members.append(("reason", .string(reason.rawValue))) }
    return .object(members)
  }

  /// The write of a JSON object of ``jsonValue``'s keys.
  ///
  /// - Throws: ``RenderError`` naming the key that is missing or wrong.
  public init(json value: JSONValue) throws {
    func text(_ key: String) throws -> String {
      guard let text = value[key]?.string, !text.isEmpty else {
        throw RenderError("the work item's \"\(key)\" must be a non-empty string")
      }
      return text
    }
    guard let format = ImageFormat(rawValue: try text("format")) else {
      throw RenderError("the work item's \"format\" is not an output format")
    }
    let reason = try value["reason"]?.string.map { name in
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
      redoes: value["redoes"]?.bool ?? false, reason: reason)
  }

  /// The write as a Foundation object of ``jsonValue``'s keys.
  @available(*, deprecated, renamed: "jsonValue")
  public var jsonObject: [String: Any] { foundationObject(jsonValue) }

  /// The write of a Foundation object of ``jsonValue``'s keys; see ``init(json:)``.
  @available(*, deprecated, renamed: "init(json:)")
  public init(jsonObject object: [String: Any]) throws {
    guard let value = readFoundationObject(object) else {
      throw RenderError("the work item is not a JSON object")
    }
    try self.init(json: value)
  }
}

extension BatchSummary {
  /// The summary as `batch --json` prints it: `event` ("summary"), the counts, `ignoredByExtension`,
  /// `notStarted`, `interrupted`, `seconds`, `imagesPerSecond` (written files a second), and `note` when
  /// one is given.
  public func jsonValue(note: String? = nil) -> JSONText.Value {
    var members: [(String, JSONText.Value)] = [
      ("event", .string("summary")), ("done", .integer(Int64(done))),
      ("redone", .integer(Int64(redone))), ("skipped", .integer(Int64(skipped))),
      ("unrecorded", .integer(Int64(unrecorded))), ("failed", .integer(Int64(failed))),
      ("planned", .integer(Int64(planned))), ("ignored", .integer(Int64(ignored))),
      (
        "ignoredByExtension",
        .object(ignoredByExtension.map { ($0.key, .integer(Int64($0.value))) })
      ),
      ("notStarted", .integer(Int64(notStarted))), ("interrupted", .bool(interrupted)),
      ("seconds", .number((seconds * 1000).rounded() / 1000)),
      ("imagesPerSecond", .number((imagesPerSecond * 100).rounded() / 100)),
    ]
    if let note { members.append(("note", .string(note))) }
    return .object(members)
  }

  /// The summary as a Foundation object of ``jsonValue(note:)``'s keys.
  @available(*, deprecated, renamed: "jsonValue(note:)")
  public func jsonObject(note: String? = nil) -> [String: Any] {
    foundationObject(jsonValue(note: note))
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

/// For the deprecated Foundation-object forms: `value` as `JSONSerialization` reads its text.
private func foundationObject(_ value: JSONText.Value) -> [String: Any] {
  guard let data = try? JSONText.data(value, .line) else { return [:] }
  return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
}

/// For the deprecated Foundation-object forms: `object` as FrameDial's reader reads its text.
private func readFoundationObject(_ object: [String: Any]) -> JSONValue? {
  guard let data = try? JSONSerialization.data(withJSONObject: object) else { return nil }
  return try? JSONValue.read(data)
}
