import Foundation
import Vips

/// Finds the image files under batch inputs: folders are walked (recursively by default, hidden
/// entries skipped, symlinked folders not followed unless asked); files given directly are taken as is.
public struct FolderWalker: Sendable {
  /// One file found, with the path it is known by relative to its input root.
  public struct Found: Sendable, Equatable {
    /// The file's path.
    public var path: String
    /// The path below the input root (for a file given directly: its name).
    public var relativePath: String
    /// Why the file cannot be processed, when that is known from its name alone.
    public var problem: String?
  }

  /// Walk sub-folders.
  public var recursive = true
  /// Follow symbolic links to folders.
  public var followSymlinkedFolders = false
  /// Include files and folders whose names start with a dot.
  public var includeHidden = false
  /// Folders never entered (the output folder, when it lies inside an input).
  public var excludedFolders: [String] = []

  /// Creates a walker with the defaults.
  public init() {}

  /// The image candidates under `root`, sorted by relative path: files with an image extension, and files
  /// that are images by content whatever their name — including formats FrameDial refuses to read (SVG,
  /// PDF, … through libvips's blocked loaders), so that they are reported rather than silently passed over.
  public func images(under root: String) throws -> [Found] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else {
      throw RenderError("\(root): no such file or folder")
    }
    if !isFolder.boolValue {
      return [Found(path: root, relativePath: URL(fileURLWithPath: root).lastPathComponent)]
    }
    var found: [Found] = []
    try walk(folder: root, relative: "", into: &found, depth: 0)
    return found.sorted { $0.relativePath < $1.relativePath }
  }

  private func walk(folder: String, relative: String, into found: inout [Found], depth: Int) throws
  {
    let listing = try Self.list(folder)
    for raw in listing.invalidNames where includeHidden || !raw.hasPrefix(".") {
      let shown = (folder as NSString).appendingPathComponent(raw)
      found.append(
        Found(
          path: shown, relativePath: relative.isEmpty ? raw : relative + "/" + raw,
          problem: "the file name is not valid UTF-8; rename the file to process it"))
    }
    for name in listing.names {
      if !includeHidden && name.hasPrefix(".") { continue }
      let path = (folder as NSString).appendingPathComponent(name)
      let relativePath = relative.isEmpty ? name : relative + "/" + name
      guard let type = fileType(path) else { continue }
      switch type {
      case .folder:
        guard recursive, !isExcluded(path) else { continue }
        try walk(folder: path, relative: relativePath, into: &found, depth: depth + 1)
      case .file:
        if ImageSniffer.hasImageExtension(name) || ImageSniffer.kind(ofFile: path) != nil
          || Image.loaderName(forFile: path) != nil
        {
          found.append(Found(path: path, relativePath: relativePath))
        }
      }
    }
  }

  /// The entries of `folder` (without "." and ".."), sorted, with the names that are not valid UTF-8
  /// apart (shown with U+FFFD in place of the bad bytes), since no path can be made from them.
  private static func list(_ folder: String) throws -> (names: [String], invalidNames: [String]) {
    guard let directory = opendir(folder) else {
      throw RenderError("\(folder): cannot list the folder: \(String(cString: strerror(errno)))")
    }
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

  private enum EntryType { case file, folder }

  private func fileType(_ path: String) -> EntryType? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let type = attributes[.type] as? FileAttributeType
    else { return nil }
    switch type {
    case .typeDirectory:
      return .folder
    case .typeRegular:
      return .file
    case .typeSymbolicLink:
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
      if isFolder.boolValue { return followSymlinkedFolders ? .folder : nil }
      return .file
    default:
      return nil
    }
  }

  private func isExcluded(_ path: String) -> Bool {
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    return excludedFolders.contains {
      URL(fileURLWithPath: $0).resolvingSymlinksInPath().path == resolved
    }
  }
}
