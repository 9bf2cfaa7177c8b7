import Foundation
import Testing

@testable import Vips

@Suite struct ShrinkOnLoadTests {
  /// An 800 × 600 picture of grain written as `name` in `folder`.
  func write(_ name: String, in folder: URL) throws -> String {
    let path = folder.appendingPathComponent(name).path
    try Operation.call(
      "gaussnoise", ["width": 800, "height": 600, "mean": 128.0, "sigma": 30.0]
    ).image().cast(to: .uchar).write(to: path)
    return path
  }

  @Test func jpegDecodesSmallerByTheDCTFactorsOnly() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write("grain.jpg", in: folder)
    for (shrink, width, height) in [
      (1, 800, 600), (2, 400, 300), (3, 400, 300), (4, 200, 150),
      (8, 100, 75), (16, 100, 75),
    ] {
      let image = try Image(contentsOf: path, options: LoadOptions(shrink: shrink))
      #expect(image.width == width && image.height == height, "shrink \(shrink)")
    }
  }

  @Test func webpDecodesScaledAndPNGIgnoresTheShrink() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let webp = try Image(
      contentsOf: write("grain.webp", in: folder), options: LoadOptions(shrink: 4))
    #expect(webp.width == 200 && webp.height == 150)
    let png = try Image(contentsOf: write("grain.png", in: folder), options: LoadOptions(shrink: 4))
    #expect(png.width == 800 && png.height == 600)
  }

  @Test func thePixelLimitIsCheckedOnTheSizeDecoded() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write("grain.jpg", in: folder)
    let limit = 200 * 150
    #expect(throws: VipsError.self) {
      try Image(contentsOf: path, options: LoadOptions(pixelLimit: limit))
    }
    let shrunk = try Image(contentsOf: path, options: LoadOptions(pixelLimit: limit, shrink: 4))
    #expect(shrunk.width * shrunk.height == limit)
  }

  @Test func loaderArgumentsNameEachFormatsOwnShrink() {
    #expect(Image.shrinkArguments("jpegload_source", shrink: 1).isEmpty)
    #expect(Image.shrinkArguments("pngload_source", shrink: 8).isEmpty)
    guard case .int(let factor) = Image.shrinkArguments("jpegload", shrink: 5)["shrink"] else {
      Issue.record("jpegload gets no shrink")
      return
    }
    #expect(factor == 4)
    guard case .double(let scale) = Image.shrinkArguments("webpload_source", shrink: 4)["scale"]
    else {
      Issue.record("webpload gets no scale")
      return
    }
    #expect(scale == 0.25)
  }
}
