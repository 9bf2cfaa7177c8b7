import Foundation
import FrameDialC
import TIFF
import TestSupport
import Testing
import Vips

/// A TIFF whose first directory is a reduced-resolution copy (a camera's or scanner's preview,
/// NewSubfileType bit 0) or a transparency mask (bit 2), with the picture after it, is read at the
/// picture in every command and in `info`; a TIFF of full-size pages is still read at its first page.
@Suite struct TIFFPreviewPageTests {
  /// The blue 640×480 picture, not the red 64×48 preview before it: in `info`, `apply` (with and
  /// without controls), `batch`, `preview`, `sweep` and `studio`.
  @Test func everyCommandReadsThePictureNotThePreviewBeforeIt() throws {
    let folder = try CLIRunner.scratchFolder("tiff-preview")
    defer { try? FileManager.default.removeItem(at: folder) }
    let inputs = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    let tiff = inputs.appendingPathComponent("scan.tif").path
    try PreviewFirstTIFF.make(at: tiff)

    let info = try CLIRunner.run(["info", tiff])
    #expect(info.status == 0, "\(info.standardError)")
    #expect(info.standardOutput.contains(": 640×480, 3 bands"), "\(info.standardOutput)")
    #expect(info.standardError.isEmpty, "\(info.standardError)")
    let json = try CLIRunner.run(["info", "--json", tiff])
    #expect(json.standardOutput.contains(#""width":640"#), "\(json.standardOutput)")

    for (name, controls) in [("plain.png", [String]()), ("edited.jpg", ["--set", "ev=0.3"])] {
      let output = folder.appendingPathComponent(name).path
      let result = try CLIRunner.run(["apply", tiff, "-o", output] + controls)
      #expect(result.status == 0, "\(result.standardError)")
      let written = try Image(contentsOf: output)
      #expect(written.width == 640 && written.height == 480, "\(name)")
      #expect(try PreviewFirstTIFF.showsPicture(written), "\(name)")
    }

    let batchOutput = folder.appendingPathComponent("out")
    let batch = try CLIRunner.run(["batch", inputs.path, "-o", batchOutput.path, "--format", "png"])
    #expect(batch.status == 0, "\(batch.standardError)")
    let batched = try Image(contentsOf: batchOutput.appendingPathComponent("scan.png").path)
    #expect(batched.width == 640 && batched.height == 480)
    #expect(try PreviewFirstTIFF.showsPicture(batched))

    let preview = folder.appendingPathComponent("preview.png").path
    let previewRun = try CLIRunner.run(["preview", tiff, "-o", preview])
    #expect(previewRun.status == 0, "\(previewRun.standardError)")
    let viewfinder = try #require(Self.viewfinder(in: previewRun.standardOutput))
    let previewed = try Image(contentsOf: preview).extractArea(
      left: viewfinder.x + viewfinder.width / 4, top: viewfinder.y + viewfinder.height / 4,
      width: viewfinder.width / 4, height: viewfinder.height / 4)
    #expect(try PreviewFirstTIFF.showsPicture(previewed))

    let sweep = folder.appendingPathComponent("sweep.png").path
    let sweepRun = try CLIRunner.run(
      ["sweep", tiff, "-o", sweep, "--control", "ev", "--values", "0,0.5"])
    #expect(sweepRun.status == 0, "\(sweepRun.standardError)")
    // The first tile is 400×300 at (16, 56); its middle.
    let tile = try Image(contentsOf: sweep).extractArea(
      left: 116, top: 131, width: 200, height: 150)
    #expect(try PreviewFirstTIFF.showsPicture(tile))

    let viaC = folder.appendingPathComponent("c.png").path
    #expect(try Self.applyThroughTheCAPI(tiff, viaC) == 0)
    let writtenViaC = try Image(contentsOf: viaC)
    #expect(writtenViaC.width == 640 && writtenViaC.height == 480)
    #expect(try PreviewFirstTIFF.showsPicture(writtenViaC))

    let studio = try StudioClient([tiff])
    let frame = try Image(bytes: try studio.request("GET", "/frame.jpg").body)
    let middle = try frame.extractArea(
      left: frame.width / 4, top: frame.height / 4, width: frame.width / 2,
      height: frame.height / 2)
    #expect(try PreviewFirstTIFF.showsPicture(middle))
  }

  /// A transparency mask before the picture (bit 2), or a directory that is both (bits 0 and 2), is
  /// passed over as a preview is.
  @Test(arguments: [4, 5]) func aMaskBeforeThePictureIsPassedOver(firstType: Int) throws {
    let folder = try CLIRunner.scratchFolder("tiff-mask")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tiff = folder.appendingPathComponent("masked.tif").path
    try PreviewFirstTIFF.make(at: tiff, firstType: firstType)
    let output = folder.appendingPathComponent("out.png").path
    let result = try CLIRunner.run(["apply", tiff, "-o", output])
    #expect(result.status == 0, "\(result.standardError)")
    let written = try Image(contentsOf: output)
    #expect(written.width == 640 && written.height == 480)
  }

  /// A TIFF of pages that are each a picture of their own (a scanned document, libvips's
  /// multi-page TIFF) is read at its first page, as before; so is a pyramid libvips writes, whose
  /// first page is the full-size one.
  @Test func aTIFFOfFullSizePagesIsReadAtItsFirstPage() throws {
    let folder = try CLIRunner.scratchFolder("tiff-pages")
    defer { try? FileManager.default.removeItem(at: folder) }
    let pages = folder.appendingPathComponent("pages.tif").path
    try PreviewFirstTIFF.makeTwoPages(at: pages)
    let output = folder.appendingPathComponent("pages.png").path
    let result = try CLIRunner.run(["apply", pages, "-o", output])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try PreviewFirstTIFF.showsPicture(try Image(contentsOf: output)))
    #expect(
      TIFFDirectories(bytes: try Data(contentsOf: URL(fileURLWithPath: pages)))?.directories.count
        == 1)

    let pyramid = folder.appendingPathComponent("pyramid.tif").path
    _ = try Operation.call(
      "tiffsave",
      [
        "in": .image(
          try Image.solid(width: 1024, height: 768, color: PreviewFirstTIFF.pictureColour)),
        "filename": .string(pyramid), "pyramid": true, "tile": true,
      ])
    let probed = try Image.probe(pyramid)
    #expect(probed.width == 1024 && probed.height == 768 && probed.pages > 1)
  }

  /// libtiff reads the chain from an open file or from memory, up to the first full-resolution
  /// directory; libvips's readers of a path (`probe`, the one-thread decode check) and of bytes load
  /// that page.
  @Test func theDirectoryChainIsReadFromAFileOrFromMemory() throws {
    let folder = try CLIRunner.scratchFolder("tiff-chain")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tiff = folder.appendingPathComponent("scan.tif").path
    try PreviewFirstTIFF.make(at: tiff)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: tiff))
    let chain = try #require(TIFFDirectories(bytes: bytes))
    #expect(chain.directories.map(\.subfileType) == [1, 0])
    #expect(chain.firstFullResolutionPage == 1)
    let descriptor = open(tiff, O_RDONLY)
    defer { close(descriptor) }
    #expect(TIFFDirectories(descriptor: descriptor, size: bytes.count) == chain)
    #expect(lseek(descriptor, 0, SEEK_CUR) == 0, "the descriptor's offset does not move")

    let fromBytes = try Image(bytes: bytes, name: tiff)
    #expect(fromBytes.width == 640 && fromBytes.height == 480)
    #expect(try PreviewFirstTIFF.showsPicture(fromBytes))
    #expect(try Image.probe(tiff).width == 640)
    try Image.verifyDecoding(tiff)
    #expect(TIFFDirectories(bytes: Data("not a TIFF".utf8)) == nil)
  }

  /// A TIFF cut short after its preview, before the picture, is refused in one line naming it (by
  /// `apply` and `info`), with nothing from libtiff on standard error, rather than written as the
  /// preview; `--fail-on none`'s load options read the preview, as what could be decoded.
  @Test func aTIFFCutShortAfterItsPreviewIsRefusedInOneLine() throws {
    let folder = try CLIRunner.scratchFolder("tiff-cut")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tiff = folder.appendingPathComponent("scan.tif").path
    try PreviewFirstTIFF.make(at: tiff)
    let whole = try Data(contentsOf: URL(fileURLWithPath: tiff))
    let cut = folder.appendingPathComponent("cut.tif").path
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
    let chain = try #require(
      TIFFDirectories(bytes: try Data(contentsOf: URL(fileURLWithPath: cut))))
    #expect(chain.pictureMissing && chain.directories.map(\.subfileType) == [1])
    let message =
      "\(cut): cannot read: damaged TIFF: the picture after its reduced-resolution preview is cut "
      + "short or damaged"
    let output = folder.appendingPathComponent("cut.png").path
    let apply = try CLIRunner.run(["apply", cut, "-o", output])
    #expect(apply.status == 1)
    #expect(apply.standardError == "framedial apply: \(message)\n", "\(apply.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output))
    let info = try CLIRunner.run(["info", cut])
    #expect(info.status == 1)
    #expect(info.standardError == "framedial info: \(message)\n", "\(info.standardError)")
    let lenient = try Image(contentsOf: cut, options: LoadOptions(failOn: .none))
    #expect(lenient.width == 64 && lenient.height == 48)
  }

  /// `framedial_apply(input, output, NULL, NULL, &error)`, the C API's (and Python's) render: its
  /// status.
  static func applyThroughTheCAPI(_ input: String, _ output: String) throws -> Int32 {
    var error: UnsafeMutablePointer<CChar>?
    defer { cStringFree(error) }
    let status = cApply(input, output, nil, nil, &error)
    if let error { Issue.record("framedial_apply: \(String(cString: error))") }
    return status
  }

  /// The viewfinder's rectangle in `preview`'s report line (`viewfinder 1206×905+0+900`).
  static func viewfinder(in report: String) -> (x: Int, y: Int, width: Int, height: Int)? {
    guard let range = report.range(of: "viewfinder ") else { return nil }
    let numbers = report[range.upperBound...].prefix { $0 != ";" }
      .split(whereSeparator: { $0 == "×" || $0 == "+" }).compactMap { Int($0) }
    guard numbers.count == 4 else { return nil }
    return (numbers[2], numbers[3], numbers[0], numbers[1])
  }
}
