import Vips

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
    /// Not an image (a video, a sidecar), or one of a RAW + JPEG pair passed over
    /// (``BatchEvent/passedOver`` says why): not processed.
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
  /// The output's format.
  public var format: ImageFormat?
  /// Why an existing output was skipped or written again (nil when there was none, or with
  /// `--overwrite`).
  public var reason: Reason?
  /// Why an image of a RAW + JPEG pair was passed over (see ``RawPairs``).
  public var passedOver: String?
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
  /// ``ignored`` by lowercased extension with its dot (".mov", ".aae", ".dng"; "" for a name without one).
  public var ignoredByExtension: [String: Int] = [:]
  /// Files never started because the batch was interrupted.
  public var notStarted = 0
  /// Wall-clock seconds.
  public var seconds = 0.0
  /// True when the batch stopped early on request.
  public var interrupted = false
  /// Milliseconds spent on the files written, all formats together.
  public var writingMilliseconds = 0.0
  /// The part of ``writingMilliseconds`` spent on HEIC and AVIF outputs (software HEVC and AV1
  /// encoders: about ten times JPEG's time for a 12-megapixel photo).
  public var slowFormatMilliseconds = 0.0
  /// Files a dry run would write as HEIC or AVIF.
  public var slowFormatPlanned = 0
  /// The slow formats (HEIC, AVIF) among the outputs written or planned.
  public var slowFormats: Set<ImageFormat> = []

  /// The output formats whose encoding is slow: HEIC and AVIF.
  public static let slowEncodingFormats: Set<ImageFormat> = [.heic, .avif]

  /// True when HEIC or AVIF outputs dominate the run: they took more than half the time spent writing
  /// files, or (a dry run) they are more than half of the files planned. Time is what the user waits
  /// for, so a folder of HEIC photos qualifies whatever their size, and one HEIC among many JPEGs does
  /// not.
  public var slowFormatsDominate: Bool {
    if writingMilliseconds > 0 { return slowFormatMilliseconds * 2 > writingMilliseconds }
    return slowFormatPlanned * 2 > planned
  }

  /// Creates an empty summary.
  public init() {}

  /// The ignored files' kinds, most common first (ties by name), as the summary line shows them:
  /// `"8 .mov, 4 .dng, 1 .aae"`; at most `limit` kinds, then `" and 3 more"`.
  public func ignoredKindsText(limit: Int = 4) -> String {
    // A name without an extension sorts after the extensions it ties with.
    func order(_ key: String) -> String { key.isEmpty ? "\u{10FFFF}" : key }
    let kinds = ignoredByExtension.sorted {
      ($1.value, order($0.key)) < ($0.value, order($1.key))
    }
    let parts = kinds.prefix(limit).map {
      "\($0.value) \($0.key.isEmpty ? "without extension" : $0.key)"
    }
    let text = parts.joined(separator: ", ")
    return kinds.count > limit ? text + " and \(kinds.count - limit) more" : text
  }

  /// The lowercased extension of a path's last component, with its dot; "" without one.
  static func extensionKey(of path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return name[dot...].lowercased()
  }

  /// Every file that was finished one way or another.
  var finished: Int { done + redone + skipped + failed + planned + ignored }

  /// Counts `event` in its status's count (and the counts that depend on its reason, extension and
  /// format).
  public mutating func count(_ event: BatchEvent) {
    let slow = event.format.map { Self.slowEncodingFormats.contains($0) } ?? false
    switch event.status {
    case .done, .redone:
      if event.status == .done { done += 1 } else { redone += 1 }
      writingMilliseconds += event.milliseconds
      if slow { slowFormatMilliseconds += event.milliseconds }
    case .skipped:
      skipped += 1
      if event.reason == .noRecord { unrecorded += 1 }
    case .failed: failed += 1
    case .planned:
      planned += 1
      if slow { slowFormatPlanned += 1 }
    case .ignored:
      ignored += 1
      ignoredByExtension[Self.extensionKey(of: event.path), default: 0] += 1
    }
    if slow, [.done, .redone, .planned].contains(event.status), let format = event.format {
      slowFormats.insert(format)
    }
  }
}
