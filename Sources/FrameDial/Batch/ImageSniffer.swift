import Foundation
import HEIF

/// Recognises image files by their first bytes and by their extension.
public enum ImageSniffer {
  /// The kinds of image FrameDial reads in a batch.
  public enum Kind: String, Sendable, CaseIterable {
    case jpeg, png, webp, tiff, heif, avif, gif
  }

  /// File extensions of images, lower-cased.
  public static let imageExtensions: Set<String> = [
    "jpg", "jpeg", "jpe", "png", "webp", "tif", "tiff", "heic", "heif", "hif", "avif", "gif",
  ]

  /// Bytes from the start of a file that ``kind(ofHeader:)`` reads: enough for the `ftyp` box of a
  /// HEIF file, whose compatible brands say it is one when its first brand does not.
  public static let headerLength = 128

  /// The kind of image the bytes start with, if any (16 bytes are enough for every kind but a HEIF or
  /// AVIF file that names its brand only among its compatible ones: see ``headerLength``).
  public static func kind(ofHeader bytes: [UInt8]) -> Kind? {
    func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
      bytes.count >= offset + prefix.count
        && Array(bytes[offset..<(offset + prefix.count)]) == prefix
    }
    if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if starts(Array("GIF8".utf8)) { return .gif }
    if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
    if starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 {
      let brand = String(decoding: bytes[8..<12], as: UTF8.self)
      if let kind = heifKind(brand: brand) { return kind }
      // A damaged or unusual first brand: the file is HEIF (or AVIF) when it says so among its
      // compatible brands, and reads as a damaged one if it cannot be read, never as a video.
      let compatible = HEIFBrands.compatible(inHeader: bytes)
      if compatible.contains(where: { heifKind(brand: $0) == .avif }) { return .avif }
      if compatible.contains(where: { heifKind(brand: $0) == .heif }) { return .heif }
    }
    return nil
  }

  /// The image kind an `ftyp` brand names, if any.
  static func heifKind(brand: String) -> Kind? {
    if brand == "avif" || brand == "avis" { return .avif }
    if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) {
      return .heif
    }
    return nil
  }

  /// The kind of the file at `path` from its first bytes; nil when unreadable, not an image, or not a
  /// regular file (opened without blocking and checked on the descriptor, so a FIFO or a device is
  /// never read).
  public static func kind(ofFile path: String) -> Kind? {
    firstBytes(ofFile: path, count: headerLength).flatMap(kind(ofHeader:))
  }

  /// Up to `count` bytes from the start of the regular file at `path`; nil when it cannot be opened,
  /// is empty, or is not a regular file (opened without blocking and checked on the descriptor, so a
  /// FIFO or a device is never read).
  private static func firstBytes(ofFile path: String, count: Int) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    var header = [UInt8](repeating: 0, count: count)
    let got = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    return got > 0 ? Array(header.prefix(got)) : nil
  }

  /// The video container the bytes start with ("MP4", "QuickTime", "Matroska", …), if any: 16 bytes
  /// are enough, but an MPEG transport stream is told by its sync byte repeated 188 bytes on, so it
  /// needs 189. HEIF and AVIF, which share MP4's boxes, are images, not videos, whichever of their
  /// brands says so.
  public static func videoContainer(ofHeader bytes: [UInt8]) -> String? {
    func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
      bytes.count >= offset + prefix.count
        && Array(bytes[offset..<(offset + prefix.count)]) == prefix
    }
    if kind(ofHeader: bytes) != nil { return nil }
    if starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 {
      let brand = String(decoding: bytes[8..<12], as: UTF8.self)
      if brand == "qt  " { return "QuickTime" }
      if brand.hasPrefix("3g") { return "3GP" }
      if brand == "crx " { return nil }  // Canon's CR3 raw photos
      return "MP4"
    }
    if starts(Array("moov".utf8), at: 4) || starts(Array("mdat".utf8), at: 4)
      || starts(Array("wide".utf8), at: 4)
    {
      return "QuickTime"
    }
    if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "Matroska" }
    if starts(Array("RIFF".utf8)), starts(Array("AVI ".utf8), at: 8) { return "AVI" }
    if starts(Array("YUV4MPEG2".utf8)) { return "YUV4MPEG" }
    if starts(Array("FLV".utf8)) { return "FLV" }
    if starts([0x00, 0x00, 0x01, 0xBA]) { return "MPEG program stream" }
    if starts([0x47]), bytes.count > 188, bytes[188] == 0x47 { return "MPEG transport stream" }
    return nil
  }

  /// The video container the file at `path` starts with, read as ``kind(ofFile:)`` reads (never
  /// blocking on a FIFO or a device); nil when it is not one, or cannot be read.
  public static func videoContainer(ofFile path: String) -> String? {
    firstBytes(ofFile: path, count: 189).flatMap(videoContainer(ofHeader:))
  }

  /// True when `name`'s extension is one of ``imageExtensions``.
  public static func hasImageExtension(_ name: String) -> Bool {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
    return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
  }
}
