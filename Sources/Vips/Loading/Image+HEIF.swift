import Foundation

extension Image {
  /// The extensions of HEIF files (HEIC, HEIF, AVIF), lower-cased.
  static let heifExtensions: Set<String> = ["heic", "heif", "hif", "avif"]

  /// True when `name` ends in one of ``heifExtensions``: a file named so that only a blocked loader
  /// claims (libvips recognises HEIF by the major brand of its `ftyp` box alone, which damage can
  /// change) is read by the HEIF loader, which says what is wrong with it.
  static func hasHEIFName(_ name: String) -> Bool {
    heifExtensions.contains((name as NSString).pathExtension.lowercased())
  }
}
