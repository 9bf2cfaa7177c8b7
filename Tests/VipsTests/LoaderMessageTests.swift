import Foundation
import Testing

@testable import Vips

/// What a loader's failure says: libvips's words without its operation names, and, where libvips says
/// only that the loader failed, what the format's library warned about as it failed.
@Suite struct LoaderMessageTests {
  @Test func aPNGLibpngRefusesIsRefusedWithLibpngsWarnings() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // coffee.png's signature and header, then a bKGD chunk claiming 256 MB, then the file ends.
    let png = try Data(contentsOf: URL(fileURLWithPath: Samples.path("coffee.png")))
    var bytes = [UInt8](png.prefix(8 + 8 + 13 + 4))
    bytes += [0x10, 0x00, 0x00, 0x00] + Array("bKGD".utf8) + [UInt8](repeating: 0, count: 16)
    let path = folder.appendingPathComponent("huge-chunk.png").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(
      throws: VipsError("\(path): cannot read: bKGD: chunk data is too large; not enough data")
    ) {
      try Image(contentsOf: path)
    }
  }

  @Test func libvipssOwnReasonsLoseTheOperationsName() {
    #expect(
      LoaderMessage.reason(
        "libvips operation gifload_source failed: gifload_source: Unexpected end of GIF source data",
        loader: "gifload_source", warnings: ["ignored"]) == "Unexpected end of GIF source data")
    #expect(
      LoaderMessage.reason(
        "libvips operation pngload_source failed", loader: "pngload_source", warnings: [])
        == "libvips's pngload refuses it")
    #expect(
      VipsError(
        "a.png: cannot render to b.png: libvips operation pngsave failed: vips2png: bad key"
      )
      .reason == "a.png: cannot render to b.png: vips2png: bad key")
    #expect(VipsError("plain words").reason == "plain words")
  }
}
