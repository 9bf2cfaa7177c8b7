import Foundation
import FrameDialCLI
import Vips

/// Which files the CLI treats as videos (`studio` plays them, `info` describes their streams).
enum VideoFiles {
  /// File extensions of videos.
  static let extensions: Set<String> = [
    "mp4", "mov", "m4v", "mkv", "webm", "avi", "y4m", "mpg", "mpeg", "ts", "m2ts", "mts", "3gp",
  ]

  /// True when `path`'s extension names a video (``extensions``).
  static func hasVideoExtension(_ path: String) -> Bool {
    extensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
  }

  /// True when `path` is a regular file no image loader recognises by its content — or, with
  /// `orOnlyABlockedOne`, only one of libvips's blocked loaders (ImageMagick recognises MP4 files): a
  /// video under another name (`.flv`, `.mxf`) if FFmpeg opens it.
  static func mayBeVideoByContent(_ path: String, orOnlyABlockedOne: Bool = false) -> Bool {
    guard FileManager.default.fileExists(atPath: path) else { return false }
    guard let loader = Image.loaderName(forFile: path) else { return true }
    return orOnlyABlockedOne && (try? Operation.isBlocked(loader)) == true
  }
}
