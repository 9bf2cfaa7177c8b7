import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a file so that it appears whole or not at all: the content goes to a hidden temporary file in
/// the destination's folder, which is renamed over the destination only once it is complete.
///
/// A temporary file is named `.NAME.PID-HOST.TAG.framedial-partial`: the destination's name (shortened,
/// at a character boundary, so the whole name stays within the 255 bytes a file name may have), the
/// writing process's ID, a tag of the machine it runs on (``hostTag``) and a random tag. While it is
/// written it is listed in a registry, so a process that must exit at once (on a signal) can remove it
/// first (``abandonTemporaries()``). A temporary left by a process of this machine that no longer exists
/// (killed with SIGKILL, a power cut) is removed by the next write into the same folder; one whose process
/// is alive, or that another machine writes into a shared folder (`--shard` on several machines), is never
/// touched.
public enum AtomicFile {
  /// The suffix every temporary file carries, so leftovers are recognisable.
  public static let temporarySuffix = ".framedial-partial"

  /// The longest file name, in bytes, that Linux file systems accept (`NAME_MAX`).
  static let maximumNameBytes = 255

  /// This machine in temporary file names: eight hexadecimal digits of the FNV-1a hash of its host name,
  /// so a process ID is only ever looked up on the machine that wrote it.
  public static let hostTag: String = {
    var buffer = [CChar](repeating: 0, count: 256)
    _ = gethostname(&buffer, buffer.count - 1)
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let name = String(decoding: bytes, as: UTF8.self)
    var hash: UInt32 = 0x811C_9DC5
    for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    return String(format: "%08x", hash)
  }()

  /// Who wrote a temporary file: a process ID on a machine.
  struct Writer: Equatable {
    var pid: Int32
    var host: String
  }

  /// Calls `write` with a temporary path beside `destination`, then renames it to `destination`.
  /// If `write` throws, or the rename fails, the temporary file is removed and the error rethrown.
  ///
  /// Stale temporary files of dead processes in the destination's folder are removed first (once per
  /// folder and process).
  ///
  /// - Throws: the error `write` throws, or ``RenderError`` when the rename fails or the process is
  ///   exiting after ``abandonTemporaries()``.
  public static func write(to destination: String, _ write: (String) throws -> Void) throws {
    let url = URL(fileURLWithPath: destination)
    let folder = url.deletingLastPathComponent().path
    if LiveTemporaries.shared.firstVisit(folder) { removeStaleTemporaries(in: folder) }
    let temporary = URL(fileURLWithPath: folder)
      .appendingPathComponent(
        temporaryName(for: url.lastPathComponent, pid: getpid(), host: hostTag, tag: randomTag())
      )
      .path
    guard LiveTemporaries.shared.register(temporary) else {
      throw RenderError("\(destination): not written: the process is stopping")
    }
    defer { LiveTemporaries.shared.unregister(temporary) }
    do {
      try write(temporary)
      guard rename(temporary, destination) == 0 else {
        throw RenderError(
          "\(destination): cannot move the finished file into place: \(String(cString: strerror(errno)))"
        )
      }
    } catch {
      unlink(temporary)
      throw error
    }
  }

  /// Calls `body` with the path of a new temporary file in `folder` (not created yet; `body` creates and
  /// fills it), named as a temporary for `name`, then removes it. It is listed while `body` runs, so a
  /// process that exits on a signal removes it too (standard input spooled for `apply -`, an image
  /// staged for `apply -o -`).
  ///
  /// - Throws: what `body` throws, or ``RenderError`` when the process is exiting.
  public static func withScratchFile<Result>(
    named name: String, in folder: String, _ body: (String) throws -> Result
  ) throws -> Result {
    let path = URL(fileURLWithPath: folder)
      .appendingPathComponent(
        temporaryName(for: name, pid: getpid(), host: hostTag, tag: randomTag())
      )
      .path
    guard LiveTemporaries.shared.register(path) else {
      throw RenderError("\(name): not written: the process is stopping")
    }
    defer {
      unlink(path)
      LiveTemporaries.shared.unregister(path)
    }
    return try body(path)
  }

  /// Creates the folder `destination` goes into, and any missing folders above it, and proves it takes
  /// files (a probe file is created and removed), so an output nobody may write fails before any input is
  /// read.
  ///
  /// - Throws: ``RenderError`` naming the folder and the reason ("cannot create the folder out: not a
  ///   directory", "cannot write in the folder out: permission denied").
  public static func prepareFolder(of destination: String) throws {
    let folder = URL(fileURLWithPath: destination).deletingLastPathComponent().path
    try FileOperations.prepareWritableFolder(folder)
  }

  /// Removes every temporary file being written right now and makes later ``write(to:_:)`` calls fail
  /// before they create one. For a process about to exit at once; safe to call from any thread, and
  /// again just before the exit, for a file an encoder may have opened meanwhile.
  public static func abandonTemporaries() {
    LiveTemporaries.shared.abandon()
  }

  /// The temporary file name for a destination named `name`, written by process `pid` on machine
  /// `host`: at most ``maximumNameBytes`` bytes of UTF-8, the destination's name cut at a Unicode scalar
  /// if need be.
  static func temporaryName(for name: String, pid: Int32, host: String, tag: String) -> String {
    let tail = ".\(pid)-\(host).\(tag)\(temporarySuffix)"
    let budget = maximumNameBytes - 1 - tail.utf8.count
    var part = String.UnicodeScalarView()
    var bytes = 0
    for scalar in name.unicodeScalars {
      bytes += UTF8.width(scalar)
      guard bytes <= budget else { break }
      part.append(scalar)
    }
    return "." + String(part) + tail
  }

  /// The process and machine that wrote temporary file `name`, or nil when `name` is not one of ours.
  static func writer(ofTemporary name: String) -> Writer? {
    func isHex(_ text: Substring) -> Bool {
      text.utf8.count == 8 && text.allSatisfy { $0.isASCII && $0.isHexDigit }
    }
    guard name.hasPrefix("."), name.hasSuffix(temporarySuffix) else { return nil }
    let fields = name.dropLast(temporarySuffix.count).split(
      separator: ".", omittingEmptySubsequences: false)
    guard fields.count >= 4, let tag = fields.last, let writer = fields.dropLast().last, isHex(tag)
    else { return nil }
    let parts = writer.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, isHex(parts[1]),
      parts[0].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let pid = Int32(parts[0]), pid > 1
    else { return nil }
    return Writer(pid: pid, host: String(parts[1]))
  }

  /// Removes the temporary files in `folder` written by processes of this machine that no longer exist.
  /// A process that exists but belongs to someone else (`EPERM`) counts as alive; another machine's
  /// files are left alone.
  public static func removeStaleTemporaries(in folder: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names {
      guard let writer = writer(ofTemporary: name), writer.host == hostTag,
        kill(writer.pid, 0) != 0, errno == ESRCH
      else { continue }
      unlink(URL(fileURLWithPath: folder).appendingPathComponent(name).path)
    }
  }

  /// Eight random hexadecimal digits.
  private static func randomTag() -> String {
    String(format: "%08x", UInt32.random(in: .min ... .max))
  }
}
