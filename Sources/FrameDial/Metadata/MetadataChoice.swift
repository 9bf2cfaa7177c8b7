import Foundation
import Vips

/// Which of the input's metadata a still's output carries (`--strip`, `--strip-location`). Whatever
/// the choice, the ICC profile is written, orientation is 1 (it is applied to the pixels) and the EXIF
/// thumbnail is dropped (it shows the unedited, unrotated picture; viewers make their own from the
/// pixels).
public enum MetadataChoice: String, Sendable, Equatable, Encodable, CaseIterable {
  /// EXIF, XMP and IPTC as the input has them.
  case keep
  /// Everything but where the photo was taken: EXIF's GPS IFD, the XMP properties `XMPLocation`
  /// lists and the IPTC datasets `IPTCLocation` lists.
  case stripLocation = "strip-location"
  /// No EXIF, XMP or IPTC at all.
  case strip

  /// The edit that removes from a copy of `image` what this choice and the thumbnail rule drop (for
  /// ``Vips/Image/editingMetadata(_:)``).
  func edit(for image: Image) throws -> (MetadataEditor) -> Void {
    let fields = image.fieldNames
    let location = self == .stripLocation
    var replaced: [String: Data?] = [Image.exifThumbnailField: nil]
    let dropped: (String) -> Bool
    switch self {
    case .strip:
      for name in [Image.exifField, Image.xmpField, Image.iptcField] { replaced[name] = .some(nil) }
      dropped = { $0.hasPrefix("exif-ifd") }
    case .keep, .stripLocation:
      // libvips writes a JPEG's EXIF from its blob and from these fields: both lose the thumbnail
      // (and the GPS IFD).
      dropped = { $0.hasPrefix("exif-ifd1-") || (location && $0.hasPrefix("exif-ifd3-")) }
      if image.hasField(Image.exifField), var exif = ExifBlock(try image.blob(Image.exifField)) {
        exif.removeThumbnail()
        if location { exif.removeGPS() }
        replaced[Image.exifField] = exif.data
      }
      if location, image.hasField(Image.xmpField) {
        replaced[Image.xmpField] = XMPLocation.removingLocation(
          from: try image.blob(Image.xmpField))
      }
      if location, image.hasField(Image.iptcField) {
        // IPTC that cannot be read is dropped whole rather than kept with a location in it.
        replaced[Image.iptcField] = .some(
          IPTCLocation.removingLocation(from: try image.blob(Image.iptcField)))
      }
    }
    return { editor in
      for name in fields where dropped(name) { editor.remove(name) }
      for (name, value) in replaced {
        if let value { editor.setBlob(name, value) } else { editor.remove(name) }
      }
    }
  }
}
