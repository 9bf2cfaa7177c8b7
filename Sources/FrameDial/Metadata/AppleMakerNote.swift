import Foundation

/// The HDR tags of an iPhone's maker note (EXIF tag 0x927C, `Apple iOS`), from which the headroom of
/// its HDR gain map follows (``headroomStops``).
struct AppleMakerNote: Equatable {
  /// The maker note's signature; a version (2 bytes) and the byte order (`MM` or `II`) follow, then its
  /// directory, whose offsets count from the note's start.
  static let signature = Array("Apple iOS\0".utf8)
  static let headroomTag = 0x0021
  static let gainTag = 0x0030

  /// Tag 33 (0x0021), which exiftool calls HDRHeadroom.
  var tag33: Double?
  /// Tag 48 (0x0030), which exiftool calls HDRGain.
  var tag48: Double?

  /// The HDR tags of the maker note in `exif` (a TIFF structure, with or without `Exif\0\0`); nil when
  /// it has no Apple maker note.
  init?(exif: Data) {
    guard let note = ExifBlock(exif)?.makerNote, note.starts(with: Self.signature),
      note.count >= Self.signature.count + 4
    else { return nil }
    let order = Self.signature.count + 2
    let block = ExifBlock(bytes: note, base: 0, littleEndian: note[order] == 0x49)
    let directory = order + 2
    tag33 = block.entry(Self.headroomTag, in: directory).flatMap(block.rational)
    tag48 = block.entry(Self.gainTag, in: directory).flatMap(block.rational)
  }

  init(tag33: Double?, tag48: Double?) {
    (self.tag33, self.tag48) = (tag33, tag48)
  }

  /// The headroom of the photo's HDR rendition in stops above SDR white, by Apple's rule: with tag 33
  /// below 1, 1.8 − 20 · tag48 when tag 48 is at most 0.01, else 1.601 − 0.101 · tag48; with tag 33 at
  /// or above 1, 3 − 70 · tag48, else 2.303 − 0.303 · tag48; never below 0. Nil without both tags.
  var headroomStops: Double? {
    guard let tag33, let tag48 else { return nil }
    let stops =
      tag33 < 1
      ? (tag48 <= 0.01 ? 1.8 - 20 * tag48 : 1.601 - 0.101 * tag48)
      : (tag48 <= 0.01 ? 3 - 70 * tag48 : 2.303 - 0.303 * tag48)
    return max(stops, 0)
  }
}
