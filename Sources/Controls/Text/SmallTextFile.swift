import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a small text file (a state file, a timeline) safely: only a regular file, checked on the opened
/// descriptor (a FIFO or a device such as /dev/zero is refused before a byte is read, so nothing hangs or
/// grows without end), at most `limit` bytes, with a plain reason when it cannot be read.
enum SmallTextFile {
  /// The largest file read: 16 MB, far beyond any state file or timeline a person writes.
  static let defaultLimit = 16 << 20

  /// Why a file could not be read, in a few plain words ("no such file", "not a regular file").
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The bytes of the regular file at `path`.
  static func read(_ path: String, limit: Int = defaultLimit) throws(Failure) -> Data {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw Failure(description: reason(errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw Failure(description: reason(errno)) }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw Failure(
        description: status.st_mode & S_IFMT == S_IFDIR
          ? "a folder, not a file" : "not a regular file")
    }
    guard Int(status.st_size) <= limit else {
      throw Failure(description: "larger than \(limit >> 20) MB, too large for this kind of file")
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(description: reason(errno))
      }
      if count == 0 { break }
      data.append(contentsOf: buffer[0..<count])
      guard data.count <= limit else {
        throw Failure(description: "larger than \(limit >> 20) MB, too large for this kind of file")
      }
    }
    return data
  }

  private static func reason(_ code: Int32) -> String {
    switch code {
    case ENOENT: "no such file"
    case EACCES, EPERM: "permission denied"
    case EISDIR: "a folder, not a file"
    case ENOTDIR: "a part of the path is not a folder"
    default: String(cString: strerror(code)).lowercased()
    }
  }
}
