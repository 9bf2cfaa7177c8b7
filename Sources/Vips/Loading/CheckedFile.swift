import Foundation

/// A file opened for reading only once it is known to be a regular file.
///
/// The path is opened without blocking (so a FIFO or a device never stalls the open) and checked on the
/// descriptor itself, so a path swapped for a special file between the check and the read cannot slip
/// through: whatever reads through ``descriptor`` reads the file that was checked.
public final class CheckedFile {
  /// The open descriptor; closed when the value goes away.
  public let descriptor: Int32
  /// The file's size in bytes.
  public let size: Int

  /// Opens `path` (following links); throws "no such file", "permission denied", "not a regular file", ….
  public init(opening path: String) throws(VipsError) {
    let opened = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard opened >= 0 else {
      throw VipsError("\(path): \(errno == ENOENT ? "no such file" : errorText(errno))")
    }
    var info = stat()
    guard fstat(opened, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(opened)
      throw VipsError("\(path): not a regular file")
    }
    // Reads of a regular file never block; clear the flag so readers see an ordinary descriptor.
    _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK)
    descriptor = opened
    size = Int(info.st_size)
  }

  deinit {
    close(descriptor)
  }

  /// A path that opens this very file again (not whatever the original path names now), for libvips
  /// loaders that read only from a file name. Valid while this value lives.
  var reopenablePath: String { "/proc/self/fd/\(descriptor)" }
}

/// `strerror` for `code`, starting with a lower-case letter ("permission denied").
func errorText(_ code: Int32) -> String {
  let text = String(cString: strerror(code))
  return text.prefix(1).lowercased() + text.dropFirst()
}
