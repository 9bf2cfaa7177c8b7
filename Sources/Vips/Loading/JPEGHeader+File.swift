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
