import Foundation

/// The identity of a file: its device and inode, the same whichever path, symbolic link or hard link
/// names it.
struct FileIdentity: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64
}

/// What a path finally names once symbolic links are followed (`stat`, never `lstat`).
struct FileStatus: Sendable {
  /// Device and inode.
  let identity: FileIdentity
  /// The file type bits of `st_mode`.
  private let type: UInt32

  /// The status of what `path` names; nil when nothing can be reached there (no file, a dangling or
  /// looping link, a folder on the way that cannot be searched).
  init?(_ path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    type = UInt32(info.st_mode) & UInt32(S_IFMT)
  }

  /// A regular file.
  var isRegularFile: Bool { type == UInt32(S_IFREG) }
  /// A folder.
  var isFolder: Bool { type == UInt32(S_IFDIR) }

  /// True when `path` is `folder` or lies below it, by identity: symbolic links anywhere in `path` are
  /// resolved first, and each existing folder above it is compared with `folder`.
  static func isInside(_ path: String, _ folder: FileIdentity) -> Bool {
    var current = resolvedPath(path)
    while true {
      if FileStatus(current)?.identity == folder { return true }
      let parent = (current as NSString).deletingLastPathComponent
      if parent == current || parent.isEmpty { return false }
      current = parent
    }
  }

  /// `path` made absolute with every symbolic link resolved, for the part of it that exists (the rest,
  /// not created yet, is appended as written).
  static func resolvedPath(_ path: String) -> String {
    var existing = URL(fileURLWithPath: path).standardizedFileURL.path
    var missing: [String] = []
    while true {
      if let resolved = realpath(existing, nil) {
        defer { free(resolved) }
        return missing.reversed().reduce(String(cString: resolved)) {
          ($0 as NSString).appendingPathComponent($1)
        }
      }
      let parent = (existing as NSString).deletingLastPathComponent
      if parent == existing || parent.isEmpty { return path }
      missing.append((existing as NSString).lastPathComponent)
      existing = parent
    }
  }
}

/// `strerror` for `code`, starting with a lower-case letter ("permission denied").
func errorText(_ code: Int32) -> String {
  let text = String(cString: strerror(code))
  return text.prefix(1).lowercased() + text.dropFirst()
}
