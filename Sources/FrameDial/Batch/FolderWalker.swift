import Foundation

/// Finds the image files under batch inputs: folders are walked (recursively by default, hidden
/// entries skipped, symlinked folders not followed unless asked); files given directly are taken as is.
public struct FolderWalker: Sendable {
  /// One file found, with the path it is known by relative to its input root.
  public struct Found: Sendable, Equatable {
    /// The file's path.
    public var path: String
    /// The path below the input root (for a file given directly: its name).
    public var relativePath: String
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
  /// whose first bytes are an image whatever their name.
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
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder)
    } catch {
      throw RenderError("\(folder): cannot list the folder: \(error.localizedDescription)")
    }
    for name in names.sorted() {
      if !includeHidden && name.hasPrefix(".") { continue }
      let path = (folder as NSString).appendingPathComponent(name)
      let relativePath = relative.isEmpty ? name : relative + "/" + name
      guard let type = fileType(path) else { continue }
      switch type {
      case .folder:
        guard recursive, !isExcluded(path) else { continue }
        try walk(folder: path, relative: relativePath, into: &found, depth: depth + 1)
      case .file:
        if ImageSniffer.hasImageExtension(name) || ImageSniffer.kind(ofFile: path) != nil {
          found.append(Found(path: path, relativePath: relativePath))
        }
      }
    }
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
