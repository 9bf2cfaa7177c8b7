import Foundation
import TestSupport
import Testing

@testable import FrameDial

/// ``AppleMakerNote``: the two HDR tags read from an EXIF block's Apple maker note, and the headroom
/// Apple's rule makes of them.
@Suite struct AppleMakerNoteTests {
  @Test(arguments: [true, false])
  func theTagsAreReadInEitherByteOrder(little: Bool) throws {
    let note = try #require(
      AppleMakerNote(
        exif: AppleMakerNotes.exif(
          little: little, tags: [(0x21, 63809, 75674), (0x30, 3376, 420939)])))
    #expect(note.tag33 == 63809.0 / 75674.0)
    #expect(note.tag48 == 3376.0 / 420939.0)
    let prefixed =
      Data(Array("Exif\0\0".utf8)) + AppleMakerNotes.exif(little: little, tags: [(0x30, -1, 4)])
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
        exif: AppleMakerNotes.exif(
          little: true, signature: Array("Nikon\0".utf8), tags: [(0x21, 1, 2)]))
        == nil)
    // The note ends inside its second value: that tag is not read.
    let cut = AppleMakerNote(
      exif: AppleMakerNotes.exif(little: true, tags: [(0x21, 1, 2), (0x30, 1, 200)], cut: 4))
    #expect(cut?.tag33 == 0.5)
    #expect(cut?.tag48 == nil)
    #expect(AppleMakerNote(exif: Data([0x49, 0x49, 0x2A, 0x00])) == nil)
  }
}
