import Foundation
import JPEG
import Testing

@testable import Vips

/// The headers of JPEGs libvips wrote, read with libjpeg (`JPEGHeader`), and the quality a loaded JPEG
/// carries (`Image.jpegQuality`).
@Suite struct JPEGHeaderTests {
  @Test(arguments: [
    (5, "on"), (30, "off"), (60, "on"), (75, "auto"), (90, "on"), (95, "off"), (100, "off"),
  ])
  func filesLibvipsWroteGiveBackTheirQualityAndSubsampling(quality: Int, mode: String) throws {
    let source = try Image(contentsOf: Samples.path("astronaut.png"))
    let bytes = try Operation.call(
      "jpegsave_buffer",
      ["in": .image(source), "Q": .int(quality), "subsample-mode": .string(mode)]
    ).blob("buffer")
    let header = try JPEGHeader(bytes: bytes)
    #expect(header.estimatedQuality == quality)
    #expect(header.width == 512 && header.height == 512)
    let subsampled = mode == "on" || (mode == "auto" && quality < 90)
    #expect(header.chromaSubsampling == (subsampled ? "4:2:0" : "4:4:4"))
    let loaded = try Image(bytes: bytes)
    #expect(loaded.jpegQuality == quality)
    #expect(loaded.jpegChromaSubsampling == header.chromaSubsampling)
  }

  @Test func aFileIsReadThroughTheDescriptorLibvipsDecodes() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("q95.jpg").path
    let source = try Image(contentsOf: Samples.path("coffee.png"))
    try source.write(to: path, options: SaveOptions(quality: 95, chromaSubsampling: .off))
    #expect(try JPEGHeader(contentsOf: path).estimatedQuality == 95)
    for sequential in [false, true] {
      let loaded = try Image(contentsOf: path, options: LoadOptions(sequential: sequential))
      #expect(loaded.jpegQuality == 95)
      #expect(loaded.jpegChromaSubsampling == "4:4:4")
      // Reading the header left libvips's read position alone: the pixels decode as from memory.
      let fromMemory = try Image(bytes: Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(try loaded.average() == fromMemory.average())
    }
    // The quality travels with the image through operations, as metadata does.
    let grey = try Image(contentsOf: path).colourspace("b-w")
    #expect(grey.jpegQuality == 95)
    #expect(try Image(contentsOf: Samples.path("coffee.png")).jpegQuality == nil)
    #expect(try Image(contentsOf: Samples.path("coffee.heic")).jpegQuality == nil)
  }

  @Test func coloursSharingTheLuminanceTableAreEstimatedFromItAlone() throws {
    let source = try Image(contentsOf: Samples.path("coffee.png"))
    var bytes = try source.encoded(as: .jpeg, options: SaveOptions(quality: 40))
    // SOF0: FF C0, length (2), precision, height (2), width (2), count, then id, sampling, table per
    // component. Point the two colour components at table 0.
    let sof = try #require(
      (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    #expect(bytes[sof + 9] == 3)
    bytes[sof + 15] = 0
    bytes[sof + 18] = 0
    let header = try JPEGHeader(bytes: bytes)
    #expect(header.chrominanceTable == nil)
    #expect(header.estimatedQuality == 40)
  }

  @Test func aGreyJPEGHasOneComponentAndNoChromaSubsampling() throws {
    let grey = try Image(contentsOf: Samples.path("coffee.png")).colourspace("b-w")
    let header = try JPEGHeader(
      bytes: try grey.encoded(as: .jpeg, options: SaveOptions(quality: 70)))
    #expect(header.sampling.count == 1)
    #expect(header.chrominanceTable == nil)
    #expect(header.chromaSubsampling == nil)
    #expect(header.estimatedQuality == 70)
  }

  @Test func damagedOrOtherDataIsAnErrorNeverACrash() throws {
    let jpeg = try Image(contentsOf: Samples.path("coffee.png")).encoded(
      as: .jpeg, options: SaveOptions(quality: 80))
    let png = try Data(contentsOf: URL(fileURLWithPath: Samples.path("coffee.png")))
    var noTables = jpeg
    // Turn the first DQT marker (FF DB) into a COM marker: the file then has no tables.
    if let dqt = (0..<(jpeg.count - 1)).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDB }) {
      noTables[dqt + 1] = 0xFE
    }
    let cases: [(String, Data)] = [
      ("empty", Data()), ("PNG", png), ("SOI only", Data([0xFF, 0xD8])),
      ("truncated", jpeg.prefix(120)),
      ("garbage after SOI", Data([0xFF, 0xD8] + (0..<500).map { UInt8($0 % 251) })),
      ("no tables", noTables),
    ]
    for (label, bytes) in cases {
      #expect(throws: JPEGError.self, "\(label)") { try JPEGHeader(bytes: bytes) }
    }
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let truncated = folder.appendingPathComponent("cut.jpg").path
    try jpeg.prefix(200).write(to: URL(fileURLWithPath: truncated))
    #expect(throws: JPEGError.self) { try JPEGHeader(contentsOf: truncated) }
    #expect(throws: JPEGError.self) { try JPEGHeader(contentsOf: Samples.path("coffee.png")) }
    #expect(throws: VipsError.self) { try JPEGHeader(contentsOf: folder.path) }
  }
}
