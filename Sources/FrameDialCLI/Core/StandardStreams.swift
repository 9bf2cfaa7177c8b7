import FrameDial

#if canImport(Glibc)
  import Glibc
#endif

/// `apply -` (the image on standard input) and `apply -o -` (the image on standard output), as
/// `vipsthumbnail` and `convert` take them. The input is spooled into a temporary file, so every check a
/// file gets (decoding it again to confirm a failure, a second pass for EXIF orientation) still works;
/// the output is rendered and verified into a temporary file first, so a failed render writes nothing.
package enum StandardStreams {
  /// The word for standard input and output on the command line.
  package static let dash = "-"

  /// The largest image accepted on standard input: beyond it, a file path is the better way in (and an
  /// endless stream such as `/dev/zero` stops here instead of filling the disk).
  static let maximumInputBytes = 2 << 30

  /// Copies standard input to a new file at `path`.
  ///
  /// - Throws: ``RenderError`` when standard input is a terminal, cannot be read, is empty or is larger
  ///   than ``maximumInputBytes``, or the file cannot be written.
  static func spoolInput(to path: String) throws {
    guard isatty(STDIN_FILENO) == 0 else {
      throw RenderError(
        "standard input is a terminal; pipe an image into it (framedial apply - -o OUT < photo.jpg)"
      )
    }
    let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard file >= 0 else {
      throw RenderError(
        "cannot keep standard input in \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(file) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var total = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR { continue }
        throw RenderError("cannot read standard input: \(String(cString: strerror(errno)))")
      }
      total += count
      guard total <= maximumInputBytes else {
        throw RenderError(
          "standard input is larger than \(maximumInputBytes >> 30) GiB; give the image's path instead"
        )
      }
      try buffer.withUnsafeBytes { bytes in
        try writeAll(file, bytes.baseAddress, count, what: "cannot keep standard input in \(path)")
      }
    }
    guard total > 0 else { throw RenderError("standard input is empty: no image was piped in") }
  }

  /// Copies the file at `path` to standard output. Returns false when the reader went away (`EPIPE`)
  /// before all of it was written.
  ///
  /// - Throws: ``RenderError`` when the file cannot be read or standard output cannot be written.
  static func copyToOutput(from path: String) throws -> Bool {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else {
      throw RenderError("cannot read back \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(file) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
      if count == 0 { return true }
      if count < 0 {
        if errno == EINTR { continue }
        throw RenderError("cannot read back \(path): \(String(cString: strerror(errno)))")
      }
      do {
        try buffer.withUnsafeBytes { bytes in
          try writeAll(
            STDOUT_FILENO, bytes.baseAddress, count, what: "cannot write standard output")
        }
      } catch let error as RenderError where error == closedOutput {
        return false
      }
    }
  }

  /// Thrown inside ``copyToOutput(from:)`` when standard output's reader has gone.
  private static let closedOutput = RenderError("standard output was closed")

  /// Writes `count` bytes from `base` to `descriptor`, retrying short writes and `EINTR`.
  private static func writeAll(
    _ descriptor: Int32, _ base: UnsafeRawPointer?, _ count: Int, what: String
  ) throws {
    guard let base else { return }
    var written = 0
    while written < count {
      let result = write(descriptor, base + written, count - written)
      if result >= 0 {
        written += result
      } else if errno == EPIPE && descriptor == STDOUT_FILENO {
        throw closedOutput
      } else if errno != EINTR {
        throw RenderError("\(what): \(String(cString: strerror(errno)))")
      }
    }
  }
}
