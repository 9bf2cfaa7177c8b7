import Foundation
import Testing
import Vips

@testable import FrameDial

/// The studio's viewfinder at the size a page shows it: fitted in the page's box, never enlarged, and
/// resized with its colours kept.
@Suite struct ViewfinderDisplayTests {
  /// A 1600 × 900 picture, left half dark red, right half light blue, read as the iPhone 16 Pro's
  /// viewfinder (1206 px wide in portrait: 1206 × 678).
  func source() throws -> ViewfinderSource {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("halves.png").path
    let left = try Image.solid(width: 800, height: 900, color: [120, 20, 30])
    let right = try Image.solid(width: 800, height: 900, color: [40, 160, 230])
    try Image.solid(width: 1600, height: 900, color: [0, 0, 0])
      .inserting(left, x: 0, y: 0).inserting(right, x: 800, y: 0).write(to: path)
    return try ViewfinderSource(input: path, device: try ScreenCatalog.named("iphone-16-pro"))
  }

  @Test func theSizeFitsThePagesBoxWithTheAspectRatioKeptAndNeverGrows() throws {
    let source = try source()
    #expect(source.width == 1206 && source.height == 678)
    // A box of the viewfinder's shape at 40 %: 482 × 271 (1206 × 0.4 = 482.4, 678 × 0.4 = 271.2).
    #expect(source.displaySize(fitting: 482, 271) == (482, 271))
    // A taller box: the width decides; a wider one: the height decides.
    #expect(source.displaySize(fitting: 603, 1000) == (603, 339))
    #expect(source.displaySize(fitting: 2000, 339) == (603, 339))
    // A box larger than the source gets the source's own size; nonsense boxes still give a pixel.
    #expect(source.displaySize(fitting: 4000, 3000) == (1206, 678))
    #expect(source.displaySize(fitting: 0, -5) == (1, 1))
  }

  @Test func resizedPixelsKeepTheirColoursAndTheLayout() throws {
    let source = try source()
    let small = try source.resized(toWidth: 603, height: 339)
    #expect(small.width == 603 && small.height == 339)
    #expect(small.pixels.count == 603 * 339 * 3)
    #expect(small.layout.viewfinder == source.layout.viewfinder)
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
      let at = (y * small.width + x) * 3
      return Array(small.pixels[at..<(at + 3)])
    }
    #expect(pixel(100, 170) == [120, 20, 30])
    #expect(pixel(500, 170) == [40, 160, 230])
    // The source's own size is the source itself.
    #expect(try source.resized(toWidth: 1206, height: 678).pixels == source.pixels)
  }
}
