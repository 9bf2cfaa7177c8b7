import Testing

@testable import FrameDial

@Suite struct BatchSummaryTests {
  func ignored(_ path: String) -> BatchEvent {
    BatchEvent(path: path, status: .ignored, output: "", milliseconds: 0)
  }

  @Test func ignoredFilesAreCountedByExtensionMostCommonFirst() {
    var summary = BatchSummary()
    for path in [
      "DCIM/IMG_0001.MOV", "DCIM/IMG_0002.mov", "DCIM/IMG_0001.AAE", "raw/a.DNG", "raw/b.dng",
      "raw/c.dng", "notes/README", "notes/.hidden", "a.b/archive.tar.gz",
    ] {
      summary.count(ignored(path))
    }
    #expect(summary.ignored == 9)
    #expect(
      summary.ignoredByExtension == [".mov": 2, ".aae": 1, ".dng": 3, "": 2, ".gz": 1])
    // Ties go by name, a name without an extension last.
    #expect(
      summary.ignoredKindsText(limit: 10) == "3 .dng, 2 .mov, 2 without extension, 1 .aae, 1 .gz")
    #expect(summary.ignoredKindsText(limit: 2) == "3 .dng, 2 .mov and 3 more")
  }
}
