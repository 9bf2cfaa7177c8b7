import Foundation
import Raw
import Vips

/// Finds the image files under batch inputs: folders are walked (recursively by default, hidden
/// entries skipped, symlinked folders not followed unless asked); files given directly are taken as is.
///
/// Nothing but regular files is read: a FIFO, device or socket (or a link to one) with an image extension
/// is reported as "not a regular file", without one it is ignored; so is a symbolic link that leads
/// nowhere (broken, or a loop), reported as such. Each folder is remembered by device and
/// inode, so a link that leads back to a folder above it, or to a folder already walked, is reported once
/// and not entered again. A folder that cannot be listed is reported and the walk goes on.
public struct FolderWalker: Sendable {
  /// One file found, with the path it is known by relative to its input root.
  public struct Found: Sendable, Equatable {
    /// The file's path.
    public var path: String
    /// The path below the input root (for a file given directly: its name).
    public var relativePath: String
    /// Why the file cannot be processed, when that is known before reading it.
    public var problem: String?
    /// True when the entry is a folder that was not walked (``problem`` says why).
    public var isFolder = false
    /// True for a file that is not an image by its extension or by the first bytes of a format FrameDial
    /// writes (a video, a sidecar, a document): counted and listed as ignored, never processed.
    public var isIgnored = false
  }

  /// Walk sub-folders.
  public var recursive = true
  /// Follow symbolic links to folders.
  public var followSymlinkedFolders = false
  /// Include files and folders whose names start with a dot.
  public var includeHidden = false
  /// Folders never entered (the output folder), compared by device and inode.
  public var excludedFolders: [String] = []

  /// Creates a walker with the defaults.
  public init() {}

  /// The image candidates under `root`, sorted by relative path: files with an image extension, and files
  /// that are images by content whatever their name — including formats FrameDial refuses to read (SVG,
  /// PDF, … through libvips's blocked loaders), so that they are reported rather than silently passed over.
  /// `shouldStop` is asked before each entry; once it returns true the walk ends with an "interrupted"
  /// error.
  public func images(
    under root: String, shouldStop: @escaping @Sendable () -> Bool = { false }
  ) throws
    -> [Found]
  {
    guard let status = FileStatus(root) else {
      throw RenderError("\(root): no such file or folder")
    }
    if !status.isFolder {
      return [
        Found(
          path: root, relativePath: URL(fileURLWithPath: root).lastPathComponent,
          problem: status.isRegularFile ? nil : "not a regular file")
      ]
    }
    var walk = Walk(
      walker: self, excluded: Set(excludedFolders.compactMap { FileStatus($0)?.identity }),
      shouldStop: shouldStop)
    walk.visited.insert(status.identity)
    let listing: (names: [String], invalidNames: [String])
    do {
      listing = try Self.list(root)
    } catch {
      throw RenderError("\(root): cannot list the folder: \(error.reason)")
    }
    try walk.walk(folder: root, listing: listing, relative: "", above: [status.identity])
    return walk.found.sorted { $0.relativePath < $1.relativePath }
  }

  /// The state of one walk: what was found, and every folder entered so far.
  private struct Walk {
    let walker: FolderWalker
    let excluded: Set<FileIdentity>
    let shouldStop: () -> Bool
    var visited: Set<FileIdentity> = []
    var found: [Found] = []

    init(walker: FolderWalker, excluded: Set<FileIdentity>, shouldStop: @escaping () -> Bool) {
      self.walker = walker
      self.excluded = excluded
      self.shouldStop = shouldStop
    }

    /// Walks the entries of `folder` (listed already); `above` holds the folders on the way down to it.
    mutating func walk(
      folder: String, listing: (names: [String], invalidNames: [String]), relative: String,
      above: [FileIdentity]
    ) throws {
      let includeHidden = walker.includeHidden
      for raw in listing.invalidNames where includeHidden || !raw.hasPrefix(".") {
        let shown = (folder as NSString).appendingPathComponent(raw)
        found.append(
          Found(
            path: shown, relativePath: relative.isEmpty ? raw : relative + "/" + raw,
            problem: NonUTF8Path.problem()))
      }
      for name in listing.names {
        if shouldStop() { throw RenderError("interrupted while looking for images") }
        if !includeHidden && name.hasPrefix(".") { continue }
        let path = (folder as NSString).appendingPathComponent(name)
        let relativePath = relative.isEmpty ? name : relative + "/" + name
        guard let status = FileStatus(path) else {
          // A link that leads nowhere is reported when it has an image's name, ignored otherwise; an
          // entry that vanished since the listing is passed over.
          if let problem = Self.brokenLinkProblem(path) {
            found.append(
              ImageSniffer.hasImageExtension(name)
                ? Found(path: path, relativePath: relativePath, problem: problem)
                : Found(path: path, relativePath: relativePath, isIgnored: true))
          }
          continue
        }
        if status.isFolder {
          try enter(path, status.identity, relativePath: relativePath, above: above)
        } else if !status.isRegularFile {
          if ImageSniffer.hasImageExtension(name) {
            found.append(
              Found(path: path, relativePath: relativePath, problem: "not a regular file"))
          }
        } else if ImageSniffer.hasImageExtension(name) || ImageSniffer.kind(ofFile: path) != nil
          || CameraRawFile.extensions.contains((name as NSString).pathExtension.lowercased())
        {
          found.append(Found(path: path, relativePath: relativePath))
        } else {
          found.append(Found(path: path, relativePath: relativePath, isIgnored: true))
        }
      }
    }

    /// Why the symbolic link at `path` names no file ("a broken symbolic link (to photos/a.jpg, which does
    /// not exist)", "a loop of symbolic links"), or nil when `path` is not a link (any more).
    static func brokenLinkProblem(_ path: String) -> String? {
      var link = stat()
      guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return nil }
      var info = stat()
      if stat(path, &info) != 0 && errno == ELOOP { return "a loop of symbolic links" }
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
      return "a broken symbolic link (to \(target), which does not exist)"
    }

    private mutating func enter(
      _ path: String, _ identity: FileIdentity, relativePath: String, above: [FileIdentity]
    ) throws {
      guard walker.recursive, !excluded.contains(identity) else { return }
      var link = stat()
      let isLink = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
      if isLink && !walker.followSymlinkedFolders { return }
      func skipped(_ problem: String) {
        found.append(
          Found(path: path, relativePath: relativePath, problem: problem, isFolder: true))
      }
      if above.contains(identity) {
        return skipped("not walked: it leads back to a folder above it (a loop of links)")
      }
      guard visited.insert(identity).inserted else {
        return skipped("not walked: the folder was already walked by another path")
      }
      let listing: (names: [String], invalidNames: [String])
      do {
        listing = try FolderWalker.list(path)
      } catch {
        return skipped("cannot list the folder: \(error.reason)")
      }
      try walk(folder: path, listing: listing, relative: relativePath, above: above + [identity])
    }
  }

  /// Why a folder could not be listed.
  private struct ListingError: Error {
    let reason: String
  }

  /// The entries of `folder` (without "." and ".."), sorted, with the names that are not valid UTF-8
  /// apart (shown with U+FFFD in place of the bad bytes), since no path can be made from them.
  private static func list(_ folder: String) throws(ListingError) -> (
    names: [String], invalidNames: [String]
  ) {
    guard let directory = opendir(folder) else { throw ListingError(reason: errorText(errno)) }
    defer { closedir(directory) }
    var names: [String] = []
    var invalid: [String] = []
    while let entry = readdir(directory) {
      let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix(while: { $0 != 0 }))
      }
      if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
      if let name = String(validating: bytes, as: UTF8.self) {
        names.append(name)
      } else {
        invalid.append(String(decoding: bytes, as: UTF8.self))
      }
    }
    return (names.sorted(), invalid.sorted())
  }
}
