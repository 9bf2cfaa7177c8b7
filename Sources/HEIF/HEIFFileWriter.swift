import CHeif
import Foundation

/// Writes a libheif context's file through a writer of FrameDial's own, which checks every write:
/// libheif 1.15's `heif_context_write_to_file` ignores the errors of its output stream, so a full disk
/// left a cut file and no error.
enum HEIFFileWriter {
  /// Where the writer writes, and the system's error number of a write that failed.
  private struct Sink {
    var descriptor: Int32
    var failure: Int32 = 0
  }

  /// Writes `context` as a file at `path` (created, or truncated when it exists).
  ///
  /// - Throws: ``HEIFError`` `PATH: cannot write: REASON` with the system's reason when the file
  ///   cannot be created, written whole or closed; libheif's message when it cannot write the boxes.
  static func write(_ context: OpaquePointer, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw HEIFError("\(path): cannot write: \(errorText(errno))") }
    var sink = Sink(descriptor: descriptor)
    var writer = heif_writer(writer_api_version: 1, write: writeAll)
    let error = heif_context_write(context, &writer, &sink)
    let closed = close(descriptor) == 0 ? 0 : errno
    if sink.failure != 0 { throw HEIFError("\(path): cannot write: \(errorText(sink.failure))") }
    try HEIFError.check(error, "\(path): cannot write")
    if closed != 0 { throw HEIFError("\(path): cannot write: \(errorText(closed))") }
  }

  /// libheif's writer function: writes all `size` bytes of `data` to the ``Sink`` at `userdata`, or
  /// keeps the error number of the write that failed and returns an error.
  private static let writeAll:
    @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?) -> heif_error =
      { _, data, size, userdata in
        guard let sink = userdata?.assumingMemoryBound(to: Sink.self) else { return failed }
        var done = 0
        while done < size, let data {
          let count = Foundation.write(sink.pointee.descriptor, data + done, size - done)
          if count < 0, errno == EINTR { continue }
          guard count > 0 else {
            sink.pointee.failure = count < 0 ? errno : EIO
            return failed
          }
          done += count
        }
        return HEVCDecoderPlugin.ok
      }

  /// The error the writer function returns (its reason is the ``Sink``'s error number).
  private static var failed: heif_error {
    heif_error(
      code: heif_error_Encoding_error, subcode: heif_suberror_Cannot_write_output_data,
      message: StaticText.intern("cannot write the file"))
  }

  /// `strerror` for `code`, starting with a lower-case letter ("no space left on device").
  private static func errorText(_ code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }
}
