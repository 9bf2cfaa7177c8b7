import Foundation
import Raw
import Vips

/// What a batch does with a RAW + JPEG pair: a camera raw and an image of the same name (letter case
/// aside) in the same folder, as phones and cameras write them (`IMG_0001.DNG` beside `IMG_0001.JPG` or
/// `IMG_0001.HEIC`). A raw's output is a JPEG by default, so the two would otherwise claim the same output.
public enum RawPairs: String, Sendable, CaseIterable, Equatable {
  /// Both are processed; the raw's output is named as if the raw were called `IMG_0001-raw.DNG`
  /// (`IMG_0001-raw.jpg`), the image's keeps its own name. The default: nothing is lost.
  case both
  /// The raw is developed under the pair's own name (`IMG_0001.jpg`); the camera's image is passed over.
  case raw
  /// The camera's image is processed; the raw is passed over.
  case jpeg

  /// The suffix a raw's name takes with ``both``.
  public static let rawSuffix = "-raw"

  /// How each file of a pair is treated: the files passed over, with the sentence saying why, and the
  /// names the raws of pairs are given for output naming. `paths` are the files a batch found.
  func plan(_ paths: [String]) -> (passedOver: [String: String], renamed: [String: String]) {
    var groups: [String: [String]] = [:]
    for path in paths {
      let folder = (path as NSString).deletingLastPathComponent
      let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
      groups[folder + "/" + stem.lowercased(), default: []].append(path)
    }
    var passedOver: [String: String] = [:]
    var renamed: [String: String] = [:]
    for group in groups.values where group.count > 1 {
      let raws = group.filter { Self.isRawName($0) }
      let images = group.filter { !Self.isRawName($0) }
      guard raws.count == 1, let raw = raws.first, !images.isEmpty else { continue }
      let rawName = (raw as NSString).lastPathComponent
      switch self {
      case .both:
        let ext = (rawName as NSString).pathExtension
        renamed[raw] = (rawName as NSString).deletingPathExtension + Self.rawSuffix + "." + ext
      case .raw:
        for image in images {
          passedOver[image] = "its raw \(rawName) is developed instead (--pairs raw)"
        }
      case .jpeg:
        let names = images.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        passedOver[raw] = "\(names) beside it is processed instead (--pairs jpeg)"
      }
    }
    return (passedOver, renamed)
  }

  private static func isRawName(_ path: String) -> Bool {
    CameraRawFile.extensions.contains((path as NSString).pathExtension.lowercased())
  }
}
