import Foundation
import Testing

@testable import FrameDial

/// ``AppleMakerNote``: the two HDR tags read from an EXIF block's Apple maker note, and the headroom
/// Apple's rule makes of them.
@Suite struct AppleMakerNoteTests {
  /// Bytes of a u16 or u32 in one byte order.
  static func bytes(_ value: Int, count: Int, little: Bool) -> [UInt8] {
    let ordered = (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    return little ? ordered : ordered.reversed()
  }

  /// An EXIF block (a TIFF structure in `little`'s byte order) whose Exif IFD holds a maker note:
  /// `signature`, version 1, `MM`, and a directory with each of `tags` as a signed rational
  /// (numerator, denominator) at offsets from the note's start.
  static func exif(
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

  @Test(arguments: [true, false])
  func theTagsAreReadInEitherByteOrder(little: Bool) throws {
    let note = try #require(
      AppleMakerNote(
        exif: Self.exif(little: little, tags: [(0x21, 63809, 75674), (0x30, 3376, 420939)])))
    #expect(note.tag33 == 63809.0 / 75674.0)
    #expect(note.tag48 == 3376.0 / 420939.0)
    let prefixed = Data(Array("Exif\0\0".utf8)) + Self.exif(little: little, tags: [(0x30, -1, 4)])
    let negative = try #require(AppleMakerNote(exif: prefixed))
    #expect(negative.tag48 == -0.25)
    #expect(negative.tag33 == nil)
    #expect(negative.headroomStops == nil)
  }

  /// The rule's four branches and its floor, at values the rule gives plainly.
  @Test func theHeadroomFollowsApplesRule() {
    let cases: [(Double, Double, Double)] = [
      (0.5, 0, 1.8), (0.5, 0.01, 1.6), (0.5, 0.5, 1.601 - 0.0505),
      (1.5, 0, 3), (1, 0.01, 2.3), (1.5, 0.5, 2.303 - 0.1515), (1.5, 100, 0), (-2, 0.005, 1.7),
    ]
    for (tag33, tag48, stops) in cases {
      let headroom = AppleMakerNote(tag33: tag33, tag48: tag48).headroomStops
      #expect(
        abs((headroom ?? -1) - stops) < 1e-12, "tag33 \(tag33), tag48 \(tag48): \(headroom ?? -1)")
    }
    #expect(AppleMakerNote(tag33: 0.5, tag48: nil).headroomStops == nil)
  }

  @Test func otherMakersNotesAndCutNotesGiveNoHeadroom() {
    #expect(
      AppleMakerNote(
        exif: Self.exif(little: true, signature: Array("Nikon\0".utf8), tags: [(0x21, 1, 2)]))
        == nil)
    // The note ends inside its second value: that tag is not read.
    let cut = AppleMakerNote(
      exif: Self.exif(little: true, tags: [(0x21, 1, 2), (0x30, 1, 200)], cut: 4))
    #expect(cut?.tag33 == 0.5)
    #expect(cut?.tag48 == nil)
    #expect(AppleMakerNote(exif: Data([0x49, 0x49, 0x2A, 0x00])) == nil)
  }
}
