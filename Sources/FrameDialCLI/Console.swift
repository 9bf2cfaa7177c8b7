import Foundation

/// Where a command writes: standard output for results, standard error for errors and progress.
struct Console: Sendable {
  /// Writes one line to standard output.
  func out(_ line: String, terminator: String = "\n") {
    write(line + terminator, to: FileHandle.standardOutput)
  }
  /// Writes one line to standard error.
  func err(_ line: String, terminator: String = "\n") {
    write(line + terminator, to: FileHandle.standardError)
  }

  /// True when standard error is a terminal (progress lines are drawn only there).
  var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  private func write(_ text: String, to handle: FileHandle) {
    handle.write(Data(text.utf8))
  }
}
