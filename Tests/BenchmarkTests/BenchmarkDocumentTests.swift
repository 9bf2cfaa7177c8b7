import Testing

@testable import framedial_bench

@Suite struct BenchmarkDocumentTests {
  static let order = ["frames", "hdr", "compile", "latency", "batch", "raw"]

  /// A document with the blocks named, each body saying which run wrote it.
  func document(_ blocks: [(String, String)]) -> BenchmarkDocument {
    var document = BenchmarkDocument(preamble: "# Benchmarks\n\nHow to read them.")
    for (name, body) in blocks { document.replace(name, with: body, order: Self.order) }
    return document
  }

  @Test func aRunReplacesOnlyTheSectionsItMeasured() throws {
    let earlier = document([
      ("frames", "## Frames\n\nRun: full · 2026-12-01"),
      ("raw", "## Raws\n\nRun: quick · 2026-12-01"),
    ])
    var read = try BenchmarkDocument(parsing: earlier.text)
    read.replace("raw", with: "## Raws\n\nRun: quick · 2026-12-02", order: Self.order)
    #expect(read.blocks.map(\.name) == ["frames", "raw"])
    #expect(read.blocks[0].body == "## Frames\n\nRun: full · 2026-12-01")
    #expect(read.blocks[1].body == "## Raws\n\nRun: quick · 2026-12-02")
    #expect(read.preamble == "# Benchmarks\n\nHow to read them.")
  }

  @Test func aNewSectionTakesItsPlaceInTheSectionOrder() throws {
    var read = try BenchmarkDocument(
      parsing: document([("frames", "F"), ("batch", "B"), ("carried-notes", "N")]).text)
    read.replace("compile", with: "C", order: Self.order)
    read.replace("raw", with: "R", order: Self.order)
    // compile comes before batch; raw after batch and before a section the order does not know.
    #expect(read.blocks.map(\.name) == ["frames", "compile", "batch", "raw", "carried-notes"])
  }

  @Test func writingAndReadingGiveTheSameDocument() throws {
    let original = document([
      ("frames", "## Frames\n\n| a | b |\n| --- | --- |\n| 1 | 2 |"),
      ("compile", "## Compile\n\ntext"),
    ])
    let text = original.text
    #expect(text.hasSuffix("-->\n"))
    #expect(text.contains(BenchmarkDocument.startMarker("compile") + "\n\n## Compile\n\ntext\n\n"))
    let read = try BenchmarkDocument(parsing: text)
    #expect(read == original)
    #expect(read.text == text)
  }

  @Test func aNewFileHasTheDefaultPreamble() throws {
    var document = BenchmarkDocument()
    document.replace("compile", with: "C", order: Self.order)
    let read = try BenchmarkDocument(parsing: document.text)
    #expect(read.preamble == BenchmarkDocument.defaultPreamble)
    #expect(read.blocks == [BenchmarkDocument.Block(name: "compile", body: "C")])
  }

  @Test func textThatWritingWouldLoseIsRefused() {
    let text = document([("frames", "F"), ("compile", "C")]).text
    let between = text.replacingOccurrences(
      of: BenchmarkDocument.endMarker("frames") + "\n",
      with: BenchmarkDocument.endMarker("frames") + "\nA note.\n")
    #expect(throws: BenchmarkDocument.ParseError.self) { try BenchmarkDocument(parsing: between) }
    do {
      _ = try BenchmarkDocument(parsing: between)
    } catch {
      #expect(error.message.contains("text between sections"))
    }
  }

  @Test func brokenMarkersAreRefusedWithTheirLine() {
    let unclosed = "# B\n\n" + BenchmarkDocument.startMarker("raw") + "\nbody\n"
    let twice =
      document([("raw", "R")]).text + "\n" + BenchmarkDocument.startMarker("raw") + "\nx\n"
      + BenchmarkDocument.endMarker("raw") + "\n"
    let crossed =
      "# B\n" + BenchmarkDocument.startMarker("raw") + "\nx\n"
      + BenchmarkDocument.endMarker("frames")
      + "\n"
    let cases = [
      (unclosed, "line 3: section raw is not closed"),
      (twice, "section raw appears twice"),
      (crossed, "line 4: the end of section frames inside section raw"),
    ]
    for (text, message) in cases {
      do {
        _ = try BenchmarkDocument(parsing: text)
        Issue.record("accepted: \(message)")
      } catch {
        #expect(error.message.contains(message), "\(error.message)")
      }
    }
  }
}
