import FrameDial
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Where a command writes: standard output for results, standard error for errors and progress.
///
/// Messages are written with `write(2)`, so a closed reader never kills or crashes the process (SIGPIPE
/// is ignored by ``CLI``): once standard output's reader has gone, ``outputClosed`` turns true and
/// further output is dropped. Control characters in messages are shown escaped (``escaped(_:)``), so a
/// file name cannot move the cursor, change colours or split a line.
package struct Console: Sendable {
  /// Set once writing to standard output failed with `EPIPE`.
  private final class Closed: Sendable {
    let output = Atomic<Bool>(false)
  }

  private let closed = Closed()

  /// Writes one message line to standard output, its control characters escaped.
  package func out(_ line: String) {
    write(Self.escaped(line) + "\n", to: STDOUT_FILENO)
  }
  /// Writes one message line to standard error, its control characters escaped, without the whitespace
  /// and newlines a library's text may end with (``ErrorMessage/oneLine(_:)``).
  package func err(_ line: String) {
    write(Self.escaped(ErrorMessage.oneLine(line)) + "\n", to: STDERR_FILENO)
  }
  /// Writes FrameDial's own text of several lines (help, listings, graphs) to standard output: newlines
  /// and tabs are kept, other control characters escaped; a final newline is added if missing.
  func outText(_ text: String) {
    write(Self.escapedText(text), to: STDOUT_FILENO)
  }
  /// Writes FrameDial's own text of several lines to standard error, as ``outText(_:)`` does.
  func errText(_ text: String) {
    write(Self.escapedText(text), to: STDERR_FILENO)
  }
  /// Writes one line of JSON to standard output as it is (JSON escapes control characters itself).
  package func outJSON(_ json: String) {
    write(json + "\n", to: STDOUT_FILENO)
  }
  /// Redraws the progress line on standard error (a terminal): carriage return, erase, `line` escaped.
  package func progress(_ line: String) {
    write("\r\u{1B}[K" + Self.escaped(line), to: STDERR_FILENO)
  }
  /// Erases the progress line.
  package func clearProgress() {
    write("\r\u{1B}[K", to: STDERR_FILENO)
  }

  /// True when standard error is a terminal (progress lines are drawn only there).
  package var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  /// True once standard output's reader has gone (a write failed with `EPIPE`).
  var outputClosed: Bool { closed.output.load(ordering: .sequentiallyConsistent) }

  /// `text` with every control character (C0 including newline and tab, DEL, C1) written as `\u{1B}`.
  static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        result.append(
          contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// `text` line by line through ``escaped(_:)``, tabs kept, ending with a newline.
  static func escapedText(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.split(separator: "\t", omittingEmptySubsequences: false).map { escaped(String($0)) }
        .joined(separator: "\t")
    }
    let joined = lines.joined(separator: "\n")
    return joined.hasSuffix("\n") ? joined : joined + "\n"
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// Writes all of `text`, retrying short writes and `EINTR`; other failures drop the rest (a message
  /// that cannot be shown must not stop the command), and `EPIPE` on standard output is remembered.
  private func write(_ text: String, to descriptor: Int32) {
    let bytes = Array(text.utf8)
    var written = 0
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      while written < buffer.count {
        let count = Glibc.write(descriptor, base + written, buffer.count - written)
        if count >= 0 {
          written += count
        } else if errno == EPIPE {
          if descriptor == STDOUT_FILENO {
            closed.output.store(true, ordering: .sequentiallyConsistent)
          }
          return
        } else if errno != EINTR {
          return
        }
      }
    }
  }
}
