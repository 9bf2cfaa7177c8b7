import Foundation
import Vips

/// One file of a batch: where it comes from and where its output goes.
public struct BatchItem: Sendable, Equatable {
  /// The input file.
  public var input: String
  /// Its path below its input root (with the root's name in front when there are several roots).
  public var relativePath: String
  /// The output file.
  public var output: String
  /// The output format.
  public var format: ImageFormat
  /// Why the item cannot be processed at all (its name is not valid UTF-8, its output collides with
  /// another's, or is an input).
  public var problem: String?
}

/// How a batch maps inputs to outputs.
public struct BatchLayout: Sendable {
  /// Input folders (walked) and files (taken as they are).
  public var inputs: [String]
  /// The folder that receives the mirrored tree.
  public var outputFolder: String
  /// How folders are walked.
  public var walker = FolderWalker()
  /// Output format; nil keeps each input's format (GIF becomes PNG).
  public var format: ImageFormat?
  /// Output file names.
  public var naming: OutputNaming
  /// Accept an output folder inside (or equal to) an input folder; the output folder is then skipped.
  public var allowOutputInsideInput = false
  /// Process only this part of the inputs.
  public var shard: Shard?

  /// Creates a layout with the default walking and naming.
  public init(inputs: [String], outputFolder: String, naming: OutputNaming) {
    self.inputs = inputs
    self.outputFolder = outputFolder
    self.naming = naming
  }

  /// The batch's items, in a stable order (input order, then relative path).
  public func items() throws -> [BatchItem] {
    guard !inputs.isEmpty else { throw RenderError("no inputs given") }
    let output = Self.absolute(outputFolder)
    var walker = self.walker
    var rootNames = Set<String>()
    var found: [(FolderWalker.Found, prefix: String)] = []
    for input in inputs {
      let root = Self.absolute(input)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else {
        throw RenderError("\(input): no such file or folder")
      }
      if isFolder.boolValue {
        if Self.isInside(output, root) || Self.isInside(root, output) {
          guard allowOutputInsideInput, !Self.isInside(root, output) || root == output else {
            throw RenderError(
              "output folder \(outputFolder) lies \(Self.isInside(output, root) ? "inside" : "around") input "
                + "folder \(input): outputs would mix with inputs (use --allow-output-inside to accept)"
            )
          }
          walker.excludedFolders.append(output)
        }
      }
      let prefix =
        inputs.count > 1 && isFolder.boolValue ? URL(fileURLWithPath: root).lastPathComponent : ""
      if !prefix.isEmpty {
        guard rootNames.insert(prefix).inserted else {
          throw RenderError(
            "two input folders are both called '\(prefix)': their outputs would collide")
        }
      }
      for file in try walker.images(under: input) { found.append((file, prefix)) }
    }
    var items: [BatchItem] = []
    var claimed: [String: String] = [:]
    let inputPaths = Set(found.map { Self.absolute($0.0.path) })
    for (file, prefix) in found {
      let relative = prefix.isEmpty ? file.relativePath : prefix + "/" + file.relativePath
      if let shard, !shard.contains(relative) { continue }
      let format = self.format ?? Self.format(of: file.path)
      let name = naming.name(for: URL(fileURLWithPath: file.path).lastPathComponent, format: format)
      let folder = (relative as NSString).deletingLastPathComponent
      // Outputs are named as the user spelled the output folder; collisions are checked on full paths.
      let target = ((outputFolder as NSString).appendingPathComponent(folder) as NSString)
        .appendingPathComponent(name)
      var item = BatchItem(
        input: file.path, relativePath: relative, output: target, format: format,
        problem: file.problem)
      if item.problem != nil {
        // Reported as it is.
      } else if inputPaths.contains(Self.absolute(target)) {
        item.problem = "its output \(target) is an input file; refusing to overwrite it"
      } else if let other = claimed[Self.absolute(target)] {
        item.problem = "its output \(target) is already the output of \(other)"
      } else {
        claimed[Self.absolute(target)] = file.path
      }
      items.append(item)
    }
    return items
  }

  /// The format an input is written in when no format is asked for: its own (by content, else by
  /// extension), with GIF written as PNG and unknown kinds as JPEG.
  static func format(of path: String) -> ImageFormat {
    switch ImageSniffer.kind(ofFile: path) {
    case .jpeg: return .jpeg
    case .png, .gif: return .png
    case .webp: return .webp
    case .tiff: return .tiff
    case .heif: return .heic
    case .avif: return .avif
    case nil:
      let ext = (path as NSString).pathExtension.lowercased()
      if ext == "gif" { return .png }
      return ImageFormat(fileExtension: ext) ?? .jpeg
    }
  }

  static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  /// True when `path` is `folder` or lies below it.
  static func isInside(_ path: String, _ folder: String) -> Bool {
    path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
  }
}
