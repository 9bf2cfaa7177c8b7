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

  /// Creates `folder` if needed and proves it takes files: a probe file is created and removed, so a
  /// read-only file system or a folder the user may not write in fails here, before any image is read.
  /// Each call's probe has a name of its own, so threads and processes preparing one folder at once
  /// never meet. The probe is listed with the files being written (``LiveTemporaries``), so a signal
  /// that stops the process while it exists removes it too.
  static func prepareWritableFolder(_ folder: String) throws {
    try createFolder(folder)
    let probe = (folder as NSString).appendingPathComponent(
      ".framedial-probe-\(getpid())-\(UUID().uuidString)")
    guard LiveTemporaries.shared.register(probe) else {
      throw RenderError("\(folder): not written: the process is stopping")
    }
    defer { LiveTemporaries.shared.unregister(probe) }
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RenderError("cannot write in the folder \(folder): \(errorText(errno))")
    }
    close(descriptor)
    unlink(probe)
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
