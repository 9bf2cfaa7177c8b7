import CVips
import Foundation
import Synchronization

/// Every message FrameDial reads from libvips's error buffer, counted.
///
/// libvips keeps one error buffer for the process, and its decoders write to it even when the error
/// they return is lost: libvips 8.14's thread pool can report success while a worker is still failing
/// (it reads the pool's error flag before waiting for its workers; fixed in libvips 8.15.4), and the
/// tile caches hand the failed strip out as black pixels. A message that appears while an image is
/// computed is therefore the trace of a decoder failure (or of a warning, which libjpeg also writes
/// there). Every read of the buffer goes through here, so no trace is lost when another thread empties it.
enum ErrorJournal {
  private struct State {
    var count: UInt64 = 0
    var recent: [(number: UInt64, message: String)] = []
  }

  private static let state = Mutex(State())
  private static let keptMessages = 16

  /// Reads and clears libvips's error buffer; a message found is counted and kept.
  static func take() -> String {
    take(droppingWhenEveryLine: { _ in false })
  }

  /// Clears libvips's error buffer after a search for a loader found none: its "not in a known format"
  /// is no trace of damage and is dropped uncounted. Anything else found there is counted as ``take()``
  /// counts it.
  static func dropUnknownFormat() {
    _ = take(droppingWhenEveryLine: isUnknownFormat)
  }

  /// True for libvips's messages for data no loader recognises.
  static func isUnknownFormat(_ line: Substring) -> Bool {
    line.hasPrefix("VipsForeignLoad: ")
      && (line.hasSuffix(" is not a known file format") || line.hasSuffix(" not a known format")
        || line.hasSuffix(" is not in a known format"))
  }

  /// ``take()``, except that a buffer whose every non-empty line satisfies `isNoTrace` is dropped.
  private static func take(droppingWhenEveryLine isNoTrace: (Substring) -> Bool) -> String {
    state.withLock { state in
      guard let buffer = vips_error_buffer_copy() else { return "" }
      defer { g_free(buffer) }
      let text = String(cString: buffer)
      let lines = text.split(whereSeparator: \.isNewline).map {
        $0.trimmingCharacters(in: .whitespaces)
      }.filter { !$0.isEmpty }
      if !lines.isEmpty, lines.allSatisfy({ isNoTrace(Substring($0)) }) { return "" }
      let message = oneLine(text)
      guard !message.isEmpty else { return "" }
      state.count += 1
      state.recent.append((state.count, message))
      if state.recent.count > keptMessages { state.recent.removeFirst() }
      return message
    }
  }

  /// libvips's buffer as one line: its lines (one a message, and libheif's messages within end with a
  /// newline of their own) trimmed, empty ones and probes beyond the end dropped, the rest joined with
  /// "; ", except that a line that is only a parenthesis (libvips's error code after libheif's text)
  /// joins with a space.
  static func oneLine(_ buffer: String) -> String {
    var message = ""
    for line in buffer.split(whereSeparator: \.isNewline) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty, !isProbeBeyondEnd(trimmed),
        let text = HEIFLoadMessage.restated(trimmed)
      else { continue }
      if !message.isEmpty { message += text.hasPrefix("(") ? " " : "; " }
      message += text
    }
    return message
  }

  /// True for libvips's "FILE: bad seek to N" from a source, which is no trace of damage: libheif asks
  /// whether another box follows the last one by seeking past the end, so every HEIF file read from a
  /// source raises it (and counting it decoded every HEIC input a second time, on one thread). A seek
  /// that matters fails the decoder, which raises its own message.
  static func isProbeBeyondEnd(_ line: String) -> Bool {
    guard let range = line.range(of: ": bad seek to ", options: .backwards) else { return false }
    let offset = line[range.upperBound...]
    return !offset.isEmpty && offset.allSatisfy(\.isASCII) && offset.allSatisfy(\.isNumber)
  }

  /// The number of messages read so far, after reading any pending one.
  static func mark() -> UInt64 {
    _ = take()
    return state.withLock { $0.count }
  }

  /// The messages raised after `mark` (pending ones included), oldest first; empty when none was.
  /// The oldest of many may be missing (only the last few are kept).
  static func messages(since mark: UInt64) -> [String] {
    _ = take()
    return state.withLock { state in
      state.recent.filter { $0.number > mark }.map(\.message)
    }
  }

  /// True when a message was raised after `mark`.
  static func raised(since mark: UInt64) -> Bool {
    _ = take()
    return state.withLock { $0.count > mark }
  }
}
