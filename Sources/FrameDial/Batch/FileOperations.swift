import Foundation

/// The file-system changes a batch makes besides writing images, with one-line errors that name the path
/// and the problem ("cannot create the folder out/a: permission denied").
enum FileOperations {
  /// Creates `folder` and any missing folders above it.
  static func createFolder(_ folder: String) throws {
    var path = folder.hasPrefix("/") ? "/" : ""
    for component in folder.split(separator: "/") {
      path = (path as NSString).appendingPathComponent(String(component))
      if mkdir(path, 0o777) == 0 { continue }
      var code = errno
      if code == EEXIST {
        if FileStatus(path)?.isFolder == true { continue }
        code = ENOTDIR
      }
      throw RenderError("cannot create the folder \(folder): \(errorText(code))")
    }
  }

  /// Gives `path` the modification time of `source` (links followed).
  static func copyModificationTime(from source: String, to path: String) throws {
    var info = stat()
    guard stat(source, &info) == 0 else {
      throw RenderError("\(source): cannot read its modification time: \(errorText(errno))")
    }
    // UTIME_OMIT (a macro Swift cannot import): the access time stays as it is.
    let omit = (1 << 30) - 2
    let times = [timespec(tv_sec: 0, tv_nsec: omit), info.st_mtim]
    guard utimensat(AT_FDCWD, path, times, 0) == 0 else {
      throw RenderError("cannot set the modification time of \(path): \(errorText(errno))")
    }
  }
}
