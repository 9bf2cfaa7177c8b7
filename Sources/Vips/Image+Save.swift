import Foundation

extension Image {
  /// Writes the image to `path` in `format` (by default, the format the extension names).
  ///
  /// This writes the file directly; callers that must never leave a partial file write to a temporary
  /// name in the same folder and rename it (FrameDial's renderers do).
  public func write(
    to path: String, format: ImageFormat? = nil, options: SaveOptions = SaveOptions()
  ) throws {
    guard let format = format ?? ImageFormat(path: path) else {
      throw VipsError("\(path): no image format is known for this file extension")
    }
    var arguments = try saveArguments(format, options)
    arguments["filename"] = .string(path)
    do {
      _ = try Operation.call(format.saver.file, arguments)
    } catch let error as VipsError {
      throw VipsError("\(path): cannot write: \(error.message)")
    }
  }

  /// The image encoded in `format`, in memory.
  public func encoded(as format: ImageFormat, options: SaveOptions = SaveOptions()) throws -> Data {
    do {
      return try Operation.call(format.saver.buffer, try saveArguments(format, options)).blob(
        "buffer")
    } catch let error as VipsError {
      throw VipsError("cannot encode \(format.rawValue): \(error.message)")
    }
  }

  private func saveArguments(_ format: ImageFormat, _ options: SaveOptions) throws -> [String:
    Argument]
  {
    var arguments: [String: Argument] = ["in": .image(self), "strip": .bool(!options.keepMetadata)]
    if let quality = options.quality, format.hasQuality {
      guard (1...100).contains(quality) else {
        throw VipsError("quality \(quality) is out of range: it must be 1 … 100")
      }
      arguments["Q"] = .int(quality)
    }
    switch format {
    case .heic: arguments["compression"] = "hevc"
    case .avif: arguments["compression"] = "av1"
    default: break
    }
    if options.chromaSubsampling != .auto, format == .jpeg || format == .heic || format == .avif {
      arguments["subsample-mode"] = .string(options.chromaSubsampling.rawValue)
    }
    return arguments
  }
}
