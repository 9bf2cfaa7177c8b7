import Foundation
import Raw
import Vips

/// One file of a batch: where it comes from and where its output goes.
public struct BatchItem: Sendable, Equatable {
  /// The input file.
  public var input: String
  /// Its path below its input root (with the root's name in front when there are several roots).
  public var relativePath: String
  /// The output file.
  public var output: String
  /// The output's path below the output folder.
  public var outputRelativePath = ""
  /// The output format.
  public var format: ImageFormat
  /// Why the item cannot be processed at all (its name is not valid UTF-8, its output collides with
  /// another's, or is an input).
  public var problem: String?
  /// True for a file that is not an image (a video, a sidecar), or one of a RAW + JPEG pair passed
  /// over (see ``RawPairs``): counted as ignored, claims no output.
  public var isIgnored = false
  /// Why an image is passed over (the other file of its RAW + JPEG pair is processed instead).
  public var passedOver: String?
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
  /// What a RAW + JPEG pair becomes.
  public var pairs = RawPairs.both
  /// Accept an output folder inside (or equal to) an input folder. An output folder inside one is not
  /// walked; one that is an input folder itself is, and the outputs its records describe (FrameDial's
  /// own, see ``OutputRecords/isRecordedOutput(_:at:)``) are not inputs, so a rerun resumes.
  public var allowOutputInsideInput = false
  /// Inputs that are refused as they are given, with the problem (a path that is not valid UTF-8, see
  /// ``NonUTF8Path``): each is one failed file of the batch, before the others.
  public var refusedInputs: [(path: String, problem: String)] = []
  /// Process only this part of the inputs.
  public var shard: Shard?
  /// Whether the output folder's file system ignores letter case, so that outputs differing only in
  /// case collide; nil finds out from the folder itself (see ``items(shouldStop:)``).
  public var outputIgnoresCase: Bool?

  /// Creates a layout with the default walking and naming.
  public init(inputs: [String], outputFolder: String, naming: OutputNaming) {
    self.inputs = inputs
    self.outputFolder = outputFolder
    self.naming = naming
  }

  /// Creates the output folder if needed and checks that files can be written in it, so an unusable
  /// output folder (a file, a read-only place) is one error before any image is read.
  ///
  /// - Throws: ``RenderError`` naming the folder and the problem.
  public func prepareOutputFolder() throws {
    try FileOperations.prepareWritableFolder(outputFolder)
  }

  /// The batch's items, in a stable order (input order, then relative path), for this part only with
  /// ``shard`` (outputs are checked for collisions across all parts). `shouldStop` is asked while
  /// folders are walked; once it returns true, planning ends with an "interrupted" error.
  ///
  /// Paths are compared as the files they finally name (symbolic links followed, by device and inode):
  /// an output folder inside an input folder, or around it, is refused (unless
  /// ``allowOutputInsideInput``) even when a link leads there, and an output that is an input, or a link
  /// to one, is refused.
  public func items(shouldStop: @escaping @Sendable () -> Bool = { false }) throws -> [BatchItem] {
    guard !inputs.isEmpty || !refusedInputs.isEmpty else { throw RenderError("no inputs given") }
    let outputStatus = FileStatus(outputFolder)
    var walker = self.walker
    // The output folder is never walked, wherever a link may lead.
    walker.excludedFolders.append(outputFolder)
    var rootNames = Set<String>()
    var found: [(FolderWalker.Found, prefix: String)] = []
    for input in inputs {
      let root = Self.absolute(input)
      guard let rootStatus = FileStatus(input) else {
        throw RenderError("\(input): no such file or folder")
      }
      if rootStatus.isFolder {
        let outputInside = FileStatus.isInside(outputFolder, rootStatus.identity)
        let inputInside = outputStatus.map { FileStatus.isInside(input, $0.identity) } ?? false
        if outputInside || inputInside {
          guard allowOutputInsideInput, !inputInside || outputInside else {
            throw RenderError(
              "output folder \(outputFolder) lies \(outputInside ? "inside" : "around") input "
                + "folder \(input): outputs would mix with inputs (use --allow-output-inside to accept)"
            )
          }
        }
      }
      let prefix =
        inputs.count > 1 && rootStatus.isFolder ? URL(fileURLWithPath: root).lastPathComponent : ""
      if !prefix.isEmpty {
        guard rootNames.insert(prefix).inserted else {
          throw RenderError(
            "two input folders are both called '\(prefix)': their outputs would collide")
        }
      }
      // An input folder that is the output folder holds the outputs of earlier runs: never inputs.
      let isOutputFolder = rootStatus.isFolder && rootStatus.identity == outputStatus?.identity
      let earlier = isOutputFolder ? OutputRecords(outputFolder: outputFolder) : nil
      for file in try walker.images(under: input, shouldStop: shouldStop) {
        if let earlier, !file.isFolder, earlier.isRecordedOutput(file.relativePath, at: file.path) {
          continue
        }
        found.append((file, prefix))
      }
    }
    var items = refusedInputs.map {
      BatchItem(
        input: $0.path, relativePath: ($0.path as NSString).lastPathComponent, output: "",
        format: self.format ?? .jpeg, problem: $0.problem)
    }
    let ignoresCase = outputIgnoresCase ?? LetterCase.isIgnored(at: outputFolder)
    var claimed: [String: String] = [:]
    // Indices of the items whose output another item claimed first.
    var collisions: [Int] = []
    let inputFiles = Set(found.compactMap { FileStatus($0.0.path)?.identity })
    let pairing = pairs.plan(found.filter { !$0.0.isFolder && !$0.0.isIgnored }.map(\.0.path))
    for (file, prefix) in found {
      if shouldStop() { throw RenderError("interrupted while looking for images") }
      let relative = prefix.isEmpty ? file.relativePath : prefix + "/" + file.relativePath
      if file.isFolder {
        let mirrored = (outputFolder as NSString).appendingPathComponent(relative)
        items.append(
          BatchItem(
            input: file.path, relativePath: relative, output: mirrored,
            format: self.format ?? .jpeg, problem: file.problem))
        continue
      }
      if file.isIgnored {
        items.append(
          BatchItem(
            input: file.path, relativePath: relative, output: "", format: self.format ?? .jpeg,
            isIgnored: true))
        continue
      }
      if let reason = pairing.passedOver[file.path] {
        var item = BatchItem(
          input: file.path, relativePath: relative, output: "", format: self.format ?? .jpeg,
          isIgnored: true)
        item.passedOver = reason
        items.append(item)
        continue
      }
      let format = self.format ?? Self.format(of: file.path)
      let name = naming.name(
        for: pairing.renamed[file.path] ?? URL(fileURLWithPath: file.path).lastPathComponent,
        format: format)
      let folder = (relative as NSString).deletingLastPathComponent
      // Outputs are named as the user spelled the output folder; collisions are checked on full paths.
      let target = ((outputFolder as NSString).appendingPathComponent(folder) as NSString)
        .appendingPathComponent(name)
      var item = BatchItem(
        input: file.path, relativePath: relative, output: target,
        outputRelativePath: folder.isEmpty ? name : folder + "/" + name, format: format,
        problem: file.problem)
      if item.problem != nil {
        // Reported as it is.
      } else if let existing = FileStatus(target), inputFiles.contains(existing.identity) {
        item.problem = "its output \(target) is an input file; refusing to overwrite it"
      } else if let other = claimed[
        LetterCase.claimKey(Self.absolute(target), ignoringCase: ignoresCase)]
      {
        item.problem =
          "its output \(target) is already the output of \(other)"
          + (ignoresCase ? " (the output folder does not tell letter case apart)" : "")
        collisions.append(items.count)
      } else {
        claimed[LetterCase.claimKey(Self.absolute(target), ignoringCase: ignoresCase)] = file.path
      }
      items.append(item)
    }
    if !collisions.isEmpty {
      let hint = collisionHint(
        items, collisions: collisions, inputFiles: inputFiles, ignoringCase: ignoresCase)
      for index in collisions { items[index].problem? += hint }
    }
    // Collisions are looked for in the whole batch, so that two parts never write the same output.
    guard let shard else { return items }
    return items.filter { shard.contains($0.relativePath) }
  }

  /// The format an input is written in when no format is asked for: its own (by content, else by
  /// extension), with GIF written as PNG, camera raws (which cannot be written back) and unknown kinds
  /// as JPEG.
  static func format(of path: String) -> ImageFormat {
    if CameraRawFile(path: path) != nil { return .jpeg }
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

  static func absolute(_ path: String) -> String { FileStatus.resolvedPath(path) }
}
