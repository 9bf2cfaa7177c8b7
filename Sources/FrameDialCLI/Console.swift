import Foundation

/// Where a command writes: standard output for results, standard error for errors and progress.
struct Console: Sendable {
  /// Writes one line to standard output.
  func out(_ line: String, terminator: String = "\n") {
    write(line + terminator, to: FileHandle.standardOutput)
  }
  /// Writes one line to standard error.
  func err(_ line: String) { write(line + "\n", to: FileHandle.standardError) }

  private func write(_ text: String, to handle: FileHandle) {
    handle.write(Data(text.utf8))
  }
}
