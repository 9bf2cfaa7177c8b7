import JPEG

extension JPEG.JPEGHeader {
  /// Reads the header of the JPEG at `path`, opened as a regular file only (``CheckedFile``): throws
  /// ``VipsError`` for a path that is not one, `JPEGError` for a file that is not a JPEG or whose header
  /// is damaged.
  public init(contentsOf path: String) throws {
    let file = try CheckedFile(opening: path)
    try self.init(descriptor: file.descriptor, name: path)
  }
}

/// Moved to the `JPEG` module.
@available(*, deprecated, message: "JPEGHeader is in the JPEG module: import JPEG")
public typealias JPEGHeader = JPEG.JPEGHeader

/// Moved to the `JPEG` module.
@available(*, deprecated, message: "JPEGQuality is in the JPEG module: import JPEG")
public typealias JPEGQuality = JPEG.JPEGQuality
