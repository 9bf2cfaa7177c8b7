import Foundation
import HEIF

/// An HDR photo's gain map as FrameDial reads it: the auxiliary HDR gain map image an iPhone (12 or
/// later) stores beside its SDR picture, and the headroom of the HDR rendition it makes, which Apple's
/// maker note gives (tags 33 and 48, by Apple's rule; see ``headroomStops``); or, in a file without
/// Apple's, an ISO 21496-1 gain map (a `tmap` item, as libavif, Chrome and iOS 18 write them), whose
/// metadata gives the headroom.
public struct HDRGainMap: Sendable, Equatable {
  /// Whose form of gain map it is.
  public enum Kind: String, Sendable {
    /// Apple's auxiliary image (`urn:com:apple:photo:2020:aux:hdrgainmap`).
    case apple
    /// ISO 21496-1's `tmap` item, derived from the primary image and the gain map image.
    case iso21496 = "iso21496-1"

    /// The form's name in messages.
    public var name: String { self == .apple ? "Apple" : "ISO 21496-1" }
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

  /// The gain map of the opened HEIF `file`, nil when its primary image has none: Apple's where the
  /// file has it (an iOS 18 photo has both forms), else the ISO 21496-1 one, whose headroom is not
  /// given when its metadata cannot be read (``ISOGainMapMetadata``: a later version, or damaged).
  ///
  /// - Throws: `HEIFError` when libheif cannot read the gain map.
  static func read(_ file: HEIFFile) throws -> HDRGainMap? {
    if let map = try file.auxiliaryImages().first(where: {
      $0.type == HEIFAuxiliaryImage.appleHDRGainMapType
    }) {
      let note = try file.exif().flatMap(AppleMakerNote.init(exif:))
      return HDRGainMap(
        kind: .apple, width: map.width, height: map.height, bitDepth: map.bitDepth,
        headroomStops: note?.headroomStops)
    }
    guard let item = try file.toneMapItem() else { return nil }
    return HDRGainMap(
      kind: .iso21496, width: item.width, height: item.height, bitDepth: item.bitDepth,
      headroomStops: (try? ISOGainMapMetadata(bytes: item.metadata))?.hdrHeadroomStops)
  }

  /// The gain map in a few words, e.g. `HDR gain map (Apple, 1512×2016, headroom 1.64 stops)`.
  public var summary: String {
    "HDR gain map (\(kind.name), \(width)×\(height), \(headroomText ?? "headroom not given"))"
  }

  /// `headroom 1.64 stops`, nil when the photo does not say.
  private var headroomText: String? {
    headroomStops.map { String(format: "headroom %.2f stops", $0) }
  }

  /// The string field a still read from a file with a gain map carries (``described``), so that
  /// what is made of it can say the gain map was not kept; no image writer stores it.
  static let imageField = "framedial-hdr-gain-map"

  /// The string field beside ``imageField`` that holds the gain map's ``Kind`` (its raw value).
  static let kindField = "framedial-hdr-gain-map-kind"

  /// Its kind and headroom, e.g. `Apple, headroom 1.64 stops`.
  var described: String {
    kind.name + (headroomText.map { ", \($0)" } ?? "")
  }
}
