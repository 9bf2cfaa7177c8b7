import Foundation

extension Image {
  /// Reads the open file with the TIFF loader (through a name that reopens the same file), for a TIFF
  /// that only a blocked loader claims, and fails as a damaged TIFF with the TIFF loader's own message.
  ///
  /// libvips's TIFF check reads the file's first directory, so a TIFF whose directory is damaged is not
  /// recognised as one, and ImageMagick (blocked) claims it. It is a broken TIFF, not a format that is
  /// not allowed: the TIFF loader says what is wrong with it.
  static func loadDamagedTIFF(_ file: CheckedFile, options: LoadOptions, name: String) throws
    -> Image
  {
    do {
      return try runLoader(
        "tiffload", source: .file(file.reopenablePath), options: options, name: name)
    } catch let error as VipsError {
      let detail = error.message
        .replacingOccurrences(of: "\(name): cannot read: ", with: "")
        .replacingOccurrences(of: "libvips operation tiffload failed: ", with: "")
      throw VipsError("\(name): cannot read: damaged TIFF: \(detail)")
    }
  }

  /// True when the open file starts like a TIFF (classic or BigTIFF, either byte order) or is named .tif
  /// or .tiff. Reads its first bytes without moving the descriptor's offset.
  static func isTIFF(_ file: CheckedFile, name: String) -> Bool {
    let ext = (name as NSString).pathExtension.lowercased()
    if ext == "tif" || ext == "tiff" { return true }
    var head = [UInt8](repeating: 0, count: 4)
    let count = head.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, 4, 0) }
    guard count == 4 else { return false }
    return head == [0x49, 0x49, 0x2A, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2A]
      || head == [0x49, 0x49, 0x2B, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2B]
  }
}
