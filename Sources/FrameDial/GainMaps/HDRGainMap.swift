import Foundation
import HEIF

/// An HDR photo's gain map as FrameDial reads it: the auxiliary HDR gain map image an iPhone (12 or
/// later) stores beside its SDR picture, and the headroom of the HDR rendition it makes, which Apple's
/// maker note gives (tags 33 and 48, by Apple's rule; see ``headroomStops``).
public struct HDRGainMap: Sendable, Equatable {
  /// Whose form of gain map it is.
  public enum Kind: String, Sendable {
    /// Apple's auxiliary image (`urn:com:apple:photo:2020:aux:hdrgainmap`).
    case apple
  }

  /// The form of the gain map.
  public var kind: Kind
  /// The gain map's width in pixels (often half or a quarter of the photo's).
  public var width: Int
  /// The gain map's height in pixels.
  public var height: Int
  /// Bits a sample of the gain map.
  public var bitDepth: Int
  /// How far the HDR rendition's highlights reach above SDR white, in stops; nil when the photo does
  /// not say.
  public var headroomStops: Double?

  /// The headroom as a factor of SDR white's light (2 to the power of ``headroomStops``).
  public var headroom: Double? { headroomStops.map { exp2($0) } }

  /// The gain map of the HEIF file at `path`, nil when its primary image has none.
  ///
  /// - Throws: `HEIFError` when libheif cannot read the file or its auxiliary images.
  public static func read(heifAt path: String) throws -> HDRGainMap? {
    try read(HEIFFile(path: path))
  }

  /// The gain map of the opened HEIF `file`, nil when its primary image has none.
  static func read(_ file: HEIFFile) throws -> HDRGainMap? {
    guard
      let map = try file.auxiliaryImages().first(where: {
        $0.type == HEIFAuxiliaryImage.appleHDRGainMapType
      })
    else { return nil }
    let note = try file.exif().flatMap(AppleMakerNote.init(exif:))
    return HDRGainMap(
      kind: .apple, width: map.width, height: map.height, bitDepth: map.bitDepth,
      headroomStops: note?.headroomStops)
  }

  /// The gain map in a few words, e.g. `HDR gain map (Apple, 1512×2016, headroom 1.64 stops)`.
  public var summary: String {
    "HDR gain map (Apple, \(width)×\(height), \(headroomText ?? "headroom not given"))"
  }

  /// `headroom 1.64 stops`, nil when the photo does not say.
  private var headroomText: String? {
    headroomStops.map { String(format: "headroom %.2f stops", $0) }
  }

  /// The string field a still read from a file with a gain map carries (``described``), so that
  /// what is made of it can say the gain map was not kept; no image writer stores it.
  static let imageField = "framedial-hdr-gain-map"

  /// Its kind and headroom, e.g. `Apple, headroom 1.64 stops`.
  var described: String {
    "Apple" + (headroomText.map { ", \($0)" } ?? "")
  }
}
