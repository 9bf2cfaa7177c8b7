import Foundation

/// EXIF blocks with an Apple maker note, as an iPhone writes them: where its HDR photos' headroom
/// is (tags 33 and 48).
package enum AppleMakerNotes {
  /// Bytes of a u16 or u32 in one byte order.
  package static func bytes(_ value: Int, count: Int, little: Bool) -> [UInt8] {
    let ordered = (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    return little ? ordered : ordered.reversed()
  }

  /// An EXIF block (a TIFF structure in `little`'s byte order) whose Exif IFD holds a maker note:
  /// `signature`, version 1, `MM`, and a directory with each of `tags` as a signed rational
  /// (numerator, denominator) at offsets from the note's start.
  package static func exif(
    little: Bool, signature: [UInt8] = Array("Apple iOS\0".utf8), tags: [(Int, Int32, Int32)],
    cut: Int = 0
  ) -> Data {
    func o(_ value: Int, _ count: Int) -> [UInt8] { bytes(value, count: count, little: little) }
    func m(_ value: Int, _ count: Int) -> [UInt8] { bytes(value, count: count, little: false) }
    var note = signature + [0x00, 0x01] + Array("MM".utf8)
    let directory = note.count
    let values = directory + 2 + 12 * tags.count + 4
    note += m(tags.count, 2)
    for (index, (tag, _, _)) in tags.enumerated() {
      note += m(tag, 2) + m(10, 2) + m(1, 4) + m(values + 8 * index, 4)
    }
    note += m(0, 4)
    for (_, numerator, denominator) in tags {
      note += m(Int(UInt32(bitPattern: numerator)), 4) + m(Int(UInt32(bitPattern: denominator)), 4)
    }
    note = Array(note.dropLast(cut))
    // Header, IFD0 (the Exif IFD's pointer) at 8, the Exif IFD (the maker note) at 26, the note at 44.
    var block = (little ? Array("II".utf8) : Array("MM".utf8)) + o(42, 2) + o(8, 4)
    block += o(1, 2) + o(0x8769, 2) + o(4, 2) + o(1, 4) + o(26, 4) + o(0, 4)
    block += o(1, 2) + o(0x927C, 2) + o(7, 2) + o(note.count, 4) + o(44, 4) + o(0, 4)
    return Data(block + note)
  }

  /// The EXIF block the HDR photo fixtures carry: tag 33 = 1/2 and tag 48 = 4/1000, a headroom of
  /// 1.8 − 20 · 0.004 = 1.72 stops by Apple's rule.
  package static let hdrPhotoEXIF = exif(little: false, tags: [(0x21, 1, 2), (0x30, 4, 1000)])
}
