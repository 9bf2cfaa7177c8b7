import Foundation
import JSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What made each output of a batch's output folder, so that a rerun tells an output made with the same
/// settings (skipped: the batch resumes) from one made with other settings (rendered again) and from one
/// it knows nothing about (made by hand or by an older FrameDial: skipped and counted; `--overwrite`
/// redoes it).
///
/// Records live in the hidden folder `.framedial-records` of the output folder, one JSON Lines file per
/// process (`HOST-PID-TAG.jsonl`, so processes writing into the same folder at once, `--shard` runs on
/// one machine or several, never share a file). A file holds two kinds of line: the settings once
/// (`{"settings":ID,"made":{…}}`, see ``RenderSettings``), then one line per output naming its path
/// below the output folder, the settings ID, and the file's inode, size and modification time.
///
/// The rule that keeps a record honest: it is written after the output's temporary file is complete and
/// before that file is renamed into place, and it names that file's inode, size and modification time
/// (which the rename keeps). A record counts only while the output still has them, so
/// - a crash, Ctrl-C or failure before the rename leaves a record that matches no file (the temporary is
///   removed), and the old output keeps its own earlier record;
/// - an output replaced or edited by anything else no longer matches, and counts as unrecorded;
/// - an output whose record was lost counts as unrecorded: skipped, never trusted;
/// - two records that name the same inode, size and time with different settings (a record written
///   just before a crash, its inode reused at once for the same output with `--keep-time`) make the
///   output unrecorded too.
///
/// When a run starts it merges the files of processes of this machine that have ended into one file of
/// its own, keeping only the records that still match an output, so the folder holds about one file per
/// process that ever ran at once, and no more lines than outputs.
public final class OutputRecords: Sendable {
  /// The name of the records folder inside the output folder.
  public static let folderName = ".framedial-records"

  /// What is known about an output before it is written.
  public enum Verdict: Sendable, Equatable {
    /// No file there.
    case missing
    /// Made with the same settings.
    case sameSettings
    /// Made with other settings.
    case otherSettings
    /// A file no record describes (made by hand, by an older FrameDial, or changed since).
    case unrecorded
  }

  /// The identity of one written file: inode, size and modification time.
  struct Stamp: Hashable {
    var inode: UInt64
    var size: Int64
    var modified: [Int64]

    /// The stamp of the file at `path` (links followed); nil when there is no file.
    init?(_ path: String) {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      modified = [Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
    }

    /// The stamp of a record's `{"inode":…,"modified":[seconds,nanoseconds],"size":…}`; nil when a
    /// member is missing or not a whole number.
    init?(json value: JSONText.Value) {
      guard let inode = value["inode"].flatMap(Self.unsigned), let size = value["size"]?.integer,
        case .array(let times)? = value["modified"]
      else { return nil }
      let modified = times.compactMap(\.integer)
      guard modified.count == times.count else { return nil }
      self.inode = inode
      self.size = size
      self.modified = modified
    }

    var jsonValue: JSONText.Value {
      .object([
        ("inode", inode <= UInt64(Int64.max) ? .integer(Int64(inode)) : .unsigned(inode)),
        ("size", .integer(size)), ("modified", .array(modified.map { .integer($0) })),
      ])
    }

    private static func unsigned(_ value: JSONText.Value) -> UInt64? {
      switch value {
      case .integer(let number): UInt64(exactly: number)
      case .unsigned(let number): number
      default: nil
      }
    }
  }

  /// One record line: `{"output":…,"settings":…,"stamp":{…}}`.
  struct Line {
    var output: String
    var settings: String
    var stamp: Stamp

    init(output: String, settings: String, stamp: Stamp) {
      self.output = output
      self.settings = settings
      self.stamp = stamp
    }

    /// The line of a record's JSON object; nil when a member is missing or of another type.
    init?(json value: JSONText.Value) {
      guard case .string(let output)? = value["output"],
        case .string(let settings)? = value["settings"],
        let stamp = value["stamp"].flatMap(Stamp.init(json:))
      else { return nil }
      self.init(output: output, settings: settings, stamp: stamp)
    }

    var jsonValue: JSONText.Value {
      .object([
        ("output", .string(output)), ("settings", .string(settings)), ("stamp", stamp.jsonValue),
      ])
    }
  }

  /// The records of one file of the records folder.
  struct RecordFile {
    var name: String
    /// Settings text by ID.
    var settings: [String: String] = [:]
    var lines: [Line] = []
  }

  /// This process's own file, opened on first use.
  private struct OwnFile {
    var descriptor: Int32 = -1
    var definedSettings: Set<String> = []
  }

  private let outputFolder: String
  private let folder: String
  private let ownName: String
  /// Every file read when the run started.
  private let files: [RecordFile]
  /// Settings text of every record, by output path and stamp; nil where records of the same file
  /// disagree.
  private let known: [String: [Stamp: String?]]
  private let own = Mutex(OwnFile())

  /// Reads the records of `outputFolder` (none when it or its records folder does not exist). A file
  /// or line that cannot be read is passed over: its outputs count as unrecorded.
  public convenience init(outputFolder: String) {
    self.init(
      outputFolder: outputFolder,
      files: Self.readAll(
        in: (outputFolder as NSString).appendingPathComponent(Self.folderName)))
  }

  /// Records for the outputs this process writes into `outputFolder`, without reading the records
  /// already there: for a process told what to write by a batch planned elsewhere (its verdicts are
  /// all ``Verdict/missing`` or ``Verdict/unrecorded``, and ``compact()`` does nothing).
  public convenience init(recordingInto outputFolder: String) {
    self.init(outputFolder: outputFolder, files: [])
  }

  private init(outputFolder: String, files: [RecordFile]) {
    self.outputFolder = outputFolder
    folder = (outputFolder as NSString).appendingPathComponent(Self.folderName)
    ownName =
      "\(AtomicFile.hostTag)-\(getpid())-"
      + String(format: "%08x", UInt32.random(in: .min ... .max)) + ".jsonl"
    self.files = files
    var known: [String: [Stamp: String?]] = [:]
    for file in files {
      for line in file.lines {
        guard let text = file.settings[line.settings] else { continue }
        if let earlier = known[line.output]?[line.stamp], earlier != text {
          known[line.output]?[line.stamp] = .some(nil)
        } else {
          known[line.output, default: [:]][line.stamp] = text
        }
      }
    }
    self.known = known
  }

  deinit {
    let descriptor = own.withLock { $0.descriptor }
    if descriptor >= 0 { close(descriptor) }
  }

  /// What is known about the output at `path`, `relativePath` below the output folder, for a render
  /// with `settings`.
  public func verdict(for relativePath: String, at path: String, settings: RenderSettings)
    -> Verdict
  {
    guard let stamp = Stamp(path) else { return .missing }
    guard let made = known[relativePath]?[stamp] ?? nil else { return .unrecorded }
    return made == settings.text ? .sameSettings : .otherSettings
  }

  /// True when the file at `path`, `relativePath` below the output folder, is an output that a run
  /// recorded (with any settings) and that still has the inode, size and time recorded: FrameDial's
  /// own output, not a file of the user's.
  public func isRecordedOutput(_ relativePath: String, at path: String) -> Bool {
    guard let stamp = Stamp(path) else { return false }
    return known[relativePath]?[stamp] != nil
  }

  /// Records that the complete file at `temporary`, about to be renamed to the output `relativePath`
  /// below the output folder, was made with `settings`. Call it before the rename.
  ///
  /// - Throws: ``RenderError`` when the record cannot be written (the output must then not be moved
  ///   into place).
  public func record(_ relativePath: String, file temporary: String, settings: RenderSettings)
    throws
  {
    guard let stamp = Stamp(temporary) else {
      throw RenderError("cannot record what made \(relativePath): \(errorText(errno))")
    }
    let line = Line(output: relativePath, settings: settings.id, stamp: stamp)
    try own.withLock { own in
      if own.descriptor < 0 { own.descriptor = try openOwnFile(creating: true) }
      var text = ""
      if own.definedSettings.insert(settings.id).inserted {
        text += Self.settingsLine(settings)
      }
      text += try Self.recordLine(line)
      try Self.append(text, to: own.descriptor, name: ownName)
    }
  }

  /// Merges the record files of processes of this machine that have ended into this process's own
  /// file, keeping only the records that still describe an output, then removes them. Files of live
  /// processes and of other machines are left alone. Failures leave the files as they were.
  public func compact() {
    let ended = files.filter { Self.writerHasEnded($0.name) }
    guard !ended.isEmpty else { return }
    var text = ""
    var defined = Set<String>()
    var kept = Set<String>()
    for file in ended {
      for line in file.lines {
        guard let settings = file.settings[line.settings],
          !kept.contains(line.output), known[line.output]?[line.stamp] ?? nil == settings,
          Stamp((outputFolder as NSString).appendingPathComponent(line.output)) == line.stamp,
          let recordLine = try? Self.recordLine(line)
        else { continue }
        let described = RenderSettings(text: settings)
        guard described.id == line.settings else { continue }
        if defined.insert(described.id).inserted { text += Self.settingsLine(described) }
        text += recordLine
        kept.insert(line.output)
      }
    }
    if text.isEmpty {
      for file in ended { unlink((folder as NSString).appendingPathComponent(file.name)) }
      return
    }
    do {
      try own.withLock { own in
        guard own.descriptor < 0 else { return }
        try FileOperations.createFolder(folder)
        try AtomicFile.write(to: (folder as NSString).appendingPathComponent(ownName)) { path in
          try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        own.descriptor = try openOwnFile(creating: false)
        own.definedSettings = defined
      }
    } catch {
      return
    }
    for file in ended { unlink((folder as NSString).appendingPathComponent(file.name)) }
  }

  // MARK: - Writing

  private func openOwnFile(creating: Bool) throws -> Int32 {
    if creating { try FileOperations.createFolder(folder) }
    let path = (folder as NSString).appendingPathComponent(ownName)
    let flags = O_WRONLY | O_APPEND | O_CLOEXEC | (creating ? O_CREAT | O_EXCL : 0)
    let descriptor = open(path, flags, 0o644)
    guard descriptor >= 0 else {
      throw RenderError("cannot write the batch records \(path): \(errorText(errno))")
    }
    return descriptor
  }

  /// The line that defines `settings`: written by hand so that the canonical text is kept byte for
  /// byte (it is JSON itself).
  static func settingsLine(_ settings: RenderSettings) -> String {
    "{\"settings\":\"\(settings.id)\",\"made\":\(settings.text)}\n"
  }

  static func recordLine(_ line: Line) throws -> String {
    try JSONText.string(line.jsonValue, .canonical) + "\n"
  }

  /// Appends `text` with one `write` where possible (the file is opened with `O_APPEND`).
  private static func append(_ text: String, to descriptor: Int32, name: String) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw RenderError("cannot write the batch records \(name): \(errorText(errno))")
      }
      bytes = bytes.dropFirst(written)
    }
  }

  // MARK: - Reading

  /// Reads every record file of `folder`. A file that vanishes while being read was merged by another
  /// run, whose new file the next listing shows, so the folder is listed again (a few times at most).
  static func readAll(in folder: String) -> [RecordFile] {
    var result: [RecordFile] = []
    for _ in 0..<5 {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
        return []
      }
      result = []
      var vanished = false
      for name in names.sorted() where !name.hasPrefix(".") && name.hasSuffix(".jsonl") {
        guard
          let data = FileManager.default.contents(
            atPath: (folder as NSString).appendingPathComponent(name))
        else {
          vanished = true
          break
        }
        result.append(parse(data, name: name))
      }
      if !vanished { break }
    }
    return result
  }

  /// The settings and record lines of one file; lines that are not one of the two kinds (cut short by
  /// a crash, written by another version) are passed over.
  static func parse(_ data: Data, name: String) -> RecordFile {
    var file = RecordFile(name: name)
    let prefix = Array("{\"settings\":\"".utf8)
    for slice in data.split(separator: UInt8(ascii: "\n")) {
      let bytes = Array(slice)
      if bytes.starts(with: prefix), let made = settingsText(bytes, after: prefix.count) {
        let settings = RenderSettings(text: made.text)
        if settings.id == made.id { file.settings[settings.id] = settings.text }
      } else if let value = try? JSONText.Value.read(Data(bytes)),
        let line = Line(json: value)
      {
        file.lines.append(line)
      }
    }
    return file
  }

  /// The ID and text of a settings line: `{"settings":"ID","made":TEXT}`.
  private static func settingsText(_ bytes: [UInt8], after start: Int) -> (
    id: String, text: String
  )? {
    let middle = Array("\",\"made\":".utf8)
    let idEnd = start + 16
    guard bytes.count > idEnd + middle.count + 1, bytes.last == UInt8(ascii: "}"),
      Array(bytes[idEnd..<(idEnd + middle.count)]) == middle
    else { return nil }
    let id = String(decoding: bytes[start..<idEnd], as: UTF8.self)
    let text = String(decoding: bytes[(idEnd + middle.count)..<(bytes.count - 1)], as: UTF8.self)
    return (id, text)
  }

  /// True when record file `name` was written by a process of this machine that no longer exists.
  static func writerHasEnded(_ name: String) -> Bool {
    let parts = name.dropLast(".jsonl".count).split(separator: "-")
    guard parts.count == 3, String(parts[0]) == AtomicFile.hostTag, let pid = Int32(parts[1]),
      pid > 1, pid != getpid()
    else { return false }
    return kill(pid, 0) != 0 && errno == ESRCH
  }
}
