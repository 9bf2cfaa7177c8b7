#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads whole raw frames from a file descriptor with `read(2)`, retrying short reads and `EINTR`.
struct RawFrameReader {
  /// The descriptor read from (standard input for the `frames` command).
  let descriptor: Int32

  /// Fills `buffer` from the descriptor and returns how many bytes it holds: `buffer.count` for a whole
  /// frame, fewer only when the input ended first (0 when it ended before the frame began).
  ///
  /// - Throws: ``FramesError/readFailed(frame:reason:)`` when `read(2)` fails.
  func fill(_ buffer: UnsafeMutableRawBufferPointer, frame: Int) throws(FramesError) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    var filled = 0
    while filled < buffer.count {
      let count = read(descriptor, base + filled, buffer.count - filled)
      if count > 0 {
        filled += count
      } else if count == 0 {
        break
      } else if errno != EINTR {
        throw .readFailed(frame: frame, reason: String(cString: strerror(errno)))
      }
    }
    return filled
  }
}

extension RawFrameReader {
  /// Reads one line of text (a YUV4MPEG2 header or `FRAME` line) a byte at a time, so that no frame
  /// bytes are taken with it, and returns it without its newline; nil when the input ends before it.
  ///
  /// - Throws: ``FramesError/badY4M(_:)`` for a line longer than ``Y4MHeader/maximumLength`` or cut off
  ///   by the end of the input, ``FramesError/readFailed(frame:reason:)`` when `read(2)` fails.
  func line(frame: Int) throws(FramesError) -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = read(descriptor, &byte, 1)
      if count == 1 {
        if byte == UInt8(ascii: "\n") { break }
        bytes.append(byte)
        guard bytes.count <= Y4MHeader.maximumLength else {
          throw .badY4M(
            "a line of the stream is longer than \(Y4MHeader.maximumLength) bytes (frame \(frame))")
        }
      } else if count == 0 {
        guard bytes.isEmpty else {
          throw .badY4M("the stream ends inside a header line (frame \(frame))")
        }
        return nil
      } else if errno != EINTR {
        throw .readFailed(frame: frame, reason: String(cString: strerror(errno)))
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Writes whole raw frames to a file descriptor with `write(2)`, retrying partial writes and `EINTR`.
struct RawFrameWriter {
  /// The descriptor written to (standard output for the `frames` command).
  let descriptor: Int32

  /// Writes every byte of `buffer`.
  ///
  /// - Throws: ``FramesError/readerClosed(framesWritten:)`` when the reader has gone (`EPIPE`; SIGPIPE
  ///   must be ignored), ``FramesError/writeFailed(frame:reason:)`` for any other failure.
  func write(_ buffer: UnsafeRawBufferPointer, frame: Int) throws(FramesError) {
    guard let base = buffer.baseAddress else { return }
    var written = 0
    while written < buffer.count {
      let count = systemWrite(descriptor, base + written, buffer.count - written)
      if count >= 0 {
        written += count
      } else if errno == EPIPE {
        throw .readerClosed(framesWritten: frame - 1)
      } else if errno != EINTR {
        throw .writeFailed(frame: frame, reason: String(cString: strerror(errno)))
      }
    }
  }
}

extension RawFrameWriter {
  /// Writes every byte of `bytes` (a header line).
  func write(_ bytes: [UInt8], frame: Int) throws(FramesError) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
    defer { buffer.deallocate() }
    buffer.copyBytes(from: bytes)
    try write(UnsafeRawBufferPointer(buffer), frame: frame)
  }
}

/// `write(2)`, under a name that does not clash with ``RawFrameWriter/write(_:frame:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

/// Asks the kernel for a larger buffer on `descriptor` when it is a pipe (Linux's `F_SETPIPE_SZ`, up to
/// `/proc/sys/fs/pipe-max-size`): fewer, larger transfers for multi-megabyte frames. Anything else is
/// left as it is.
func enlargePipeBuffer(_ descriptor: Int32, to bytes: Int) {
  #if os(Linux)
    let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, not exported to Swift by Glibc.
    _ = fcntl(descriptor, setPipeSize, Int32(clamping: bytes))
  #endif
}
