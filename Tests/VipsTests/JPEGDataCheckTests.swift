import Foundation
import Testing

@testable import Vips

/// libjpeg reading a JPEG's data to its end without producing a picture (`Image.verifyJPEGData`): the
/// check a JPEG that libvips decoded gets at `--fail-on warning`.
@Suite struct JPEGDataCheckTests {
  /// rocket.jpg encoded by libjpeg through libvips with `arguments` (progressive, CMYK, grey, restart
  /// intervals…), written into `folder` as `name`.
  func jpeg(_ name: String, in folder: URL, _ arguments: [String: Argument] = [:]) throws -> URL {
    var picture = try Image(contentsOf: Samples.path("rocket.jpg"))
    var all = arguments
    if case .string(let space)? = arguments["space"] {
      picture = try picture.colourspace(space)
      all["space"] = nil
    }
    all["in"] = .image(picture)
    let url = folder.appendingPathComponent(name)
    try Operation.call("jpegsave_buffer", all).blob("buffer").write(to: url)
    return url
  }

  @Test func everyIntactLayoutIsCleanAndEveryCutOneIsNot() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let layouts: [(String, [String: Argument])] = [
      ("baseline.jpg", [:]), ("progressive.jpg", ["interlace": .bool(true)]),
      ("restarts.jpg", ["restart_interval": .int(4)]), ("grey.jpg", ["space": .string("b-w")]),
      ("cmyk.jpg", ["space": .string("cmyk")]),
      ("full-chroma.jpg", ["subsample_mode": .string("off")]),
    ]
    for (name, arguments) in layouts {
      let intact = try jpeg(name, in: folder, arguments)
      try Image.verifyJPEGData(intact.path)
      let bytes = try Data(contentsOf: intact)
      let cut = folder.appendingPathComponent("cut-\(name)")
      try bytes.prefix(bytes.count * 3 / 4).write(to: cut)
      #expect(throws: VipsError.self, "\(name)") { try Image.verifyJPEGData(cut.path) }
      do {
        try Image.verifyJPEGData(cut.path)
      } catch let error as VipsError {
        #expect(error.message.hasPrefix("cannot decode the image: Premature end of JPEG file"))
      }
    }
  }

  @Test func otherFilesAreLeftToTheirOwnDecoders() throws {
    try Image.verifyJPEGData(Samples.path("coffee.png"))
    try Image.verifyJPEGData(Samples.path("coffee.heic"))
    #expect(throws: VipsError("/no/such/file.jpg: no such file")) {
      try Image.verifyJPEGData("/no/such/file.jpg")
    }
  }
}
