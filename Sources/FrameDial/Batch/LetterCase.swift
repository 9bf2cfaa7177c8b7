import Foundation

/// Whether a folder's file system tells names apart by letter case (an SD card's exFAT or FAT, or a
/// share from a Mac or Windows machine, mounted on Linux, does not): there `IMG_1.JPG` and `img_1.jpg`
/// are one file, so two outputs named so would overwrite each other.
enum LetterCase {
  /// True when names in `folder`, or in the nearest folder above it that exists, are found whatever
  /// their letter case. Decided without writing anything: a name held there (an entry of that folder,
  /// else the folder's own name in its parent) is looked up with its letters swapped, and the answer is
  /// yes when that finds the same file. No name with letters to try gives false.
  static func isIgnored(at folder: String) -> Bool {
    var current = FileStatus.resolvedPath(folder)
    while FileStatus(current)?.isFolder != true {
      let parent = (current as NSString).deletingLastPathComponent
      if parent == current || parent.isEmpty { return false }
      current = parent
    }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: current)) ?? []
    for name in entries.prefix(256) where swapped(name) != name {
      return sameFile(current, name)
    }
    let parent = (current as NSString).deletingLastPathComponent
    let own = (current as NSString).lastPathComponent
    guard parent != current, swapped(own) != own else { return false }
    return sameFile(parent, own)
  }

  /// The key under which an output path claims its name: the path itself, or its lower-case spelling
  /// where letter case is ignored.
  static func claimKey(_ path: String, ignoringCase: Bool) -> String {
    ignoringCase ? path.lowercased() : path
  }

  /// `name` with its letters in the other case: upper case, or lower case when it already is upper.
  private static func swapped(_ name: String) -> String {
    let upper = name.uppercased()
    return upper != name ? upper : name.lowercased()
  }

  /// True when `name` in `folder` and its swapped spelling are the same file.
  private static func sameFile(_ folder: String, _ name: String) -> Bool {
    let path = (folder as NSString).appendingPathComponent(name)
    let other = (folder as NSString).appendingPathComponent(swapped(name))
    guard let status = FileStatus(path), let otherStatus = FileStatus(other) else { return false }
    return status.identity == otherStatus.identity
  }
}
