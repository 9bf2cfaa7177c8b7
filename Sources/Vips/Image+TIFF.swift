import Foundation

extension Image {
  /// Runs `loader`, libvips's choice for the file at `path`; a TIFF that only a blocked loader claims
  /// goes to the TIFF loader instead, and fails as a damaged TIFF.
  ///
  /// libvips's TIFF check reads the file's first directory, so a TIFF whose directory is damaged is not
  /// recognised as one, and ImageMagick (blocked) claims it. It is a broken TIFF, not a format that is
  /// not allowed: the TIFF loader says what is wrong with it.
  static func runFileLoader(_ loader: String, path: String, options: LoadOptions) throws -> Image {
    guard try Operation.isBlocked(loader), isTIFF(path) else {
      return try runLoader(
        loader, source: ["filename": .string(path)], options: options, name: path)
    }
    do {
      return try runLoader(
        "tiffload", source: ["filename": .string(path)], options: options, name: path)
    } catch let error as VipsError {
      let detail = error.message
        .replacingOccurrences(of: "\(path): cannot read: ", with: "")
        .replacingOccurrences(of: "libvips operation tiffload failed: ", with: "")
      throw VipsError("\(path): cannot read: damaged TIFF: \(detail)")
    }
  }

  /// True when the file at `path` starts like a TIFF (classic or BigTIFF, either byte order) or is named
  /// .tif or .tiff.
  static func isTIFF(_ path: String) -> Bool {
    let ext = (path as NSString).pathExtension.lowercased()
    if ext == "tif" || ext == "tiff" { return true }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 4), data.count == 4 else { return false }
    let head = [UInt8](data)
    return head == [0x49, 0x49, 0x2A, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2A]
      || head == [0x49, 0x49, 0x2B, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2B]
  }
}
