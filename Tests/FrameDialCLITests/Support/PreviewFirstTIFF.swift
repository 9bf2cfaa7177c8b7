import Foundation
import TestSupport
import Vips

/// TIFF files with more than one directory, made with libtiff's own tools (`tiffset` marks a
/// directory's NewSubfileType, `tiffcp` chains files' directories in order), as a camera or scanner
/// writes a small preview before the picture.
enum PreviewFirstTIFF {
  /// The preview's colour and the picture's: which of them a command showed tells which page it read.
  static let previewColour: [Double] = [220, 30, 30]
  static let pictureColour: [Double] = [30, 60, 220]

  /// Writes at `path` a TIFF whose first directory is a 64×48 red picture with NewSubfileType
  /// `firstType` (1: a reduced-resolution copy; 4: a transparency mask; 0: a page of its own) and
  /// whose second is a blue `width`×`height` picture.
  static func make(
    at path: String, firstType: Int = 1, width: Int = 640, height: Int = 480
  ) throws {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let first = folder.appendingPathComponent("first-\(UUID().uuidString).tif").path
    let second = folder.appendingPathComponent("second-\(UUID().uuidString).tif").path
    defer {
      try? FileManager.default.removeItem(atPath: first)
      try? FileManager.default.removeItem(atPath: second)
    }
    try Image.solid(width: 64, height: 48, color: previewColour).write(to: first)
    try Image.solid(width: width, height: height, color: pictureColour).write(to: second)
    if firstType != 0 { try tool(["tiffset", "-s", "254", "\(firstType)", first]) }
    try tool(["tiffcp", first, second, path])
  }

  /// Writes at `path` a TIFF of two full-size pages of `width`×`height`, blue then red (neither
  /// marked as a reduced-resolution copy).
  static func makeTwoPages(at path: String, width: Int = 640, height: Int = 480) throws {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let first = folder.appendingPathComponent("first-\(UUID().uuidString).tif").path
    let second = folder.appendingPathComponent("second-\(UUID().uuidString).tif").path
    defer {
      try? FileManager.default.removeItem(atPath: first)
      try? FileManager.default.removeItem(atPath: second)
    }
    try Image.solid(width: width, height: height, color: pictureColour).write(to: first)
    try Image.solid(width: width, height: height, color: previewColour).write(to: second)
    try tool(["tiffcp", first, second, path])
  }

  /// True when `image` (RGB) shows the picture's blue rather than the preview's red: its blue band's
  /// mean is over its red band's by at least 100 code values.
  static func showsPicture(_ image: Image) throws -> Bool {
    let red = try image.extractBands(0).average()
    let blue = try image.extractBands(2).average()
    return blue > red + 100
  }

  /// Runs a libtiff tool; throws with its standard error when it fails.
  private static func tool(_ arguments: [String]) throws {
    let result = try CLIRunner.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/env"))
    guard result.status == 0 else {
      throw VipsError("\(arguments[0]) failed: \(result.standardError)")
    }
  }
}
