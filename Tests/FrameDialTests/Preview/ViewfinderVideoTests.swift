import Foundation
import Testing
import Vips

@testable import FrameDial

/// A video's viewfinder (`framedial studio VIDEO`): frames shown as a player shows them (display
/// rotation, square pixels) and scaled to the viewfinder.
@Suite struct ViewfinderVideoTests {
  @Test(
    arguments: [
      (320, 240, nil, 1.0, 320, 240),
      (320, 240, -90.0, 1.0, 240, 320),
      (320, 240, 90.0, 1.0, 240, 320),
      (320, 240, 180.0, 1.0, 320, 240),
      (200, 240, nil, 2.0, 400, 240),
      (200, 240, -90.0, 2.0, 240, 400),
      (720, 576, nil, 16.0 / 15, 768, 576),
    ] as [(Int, Int, Double?, Double, Int, Int)])
  func displaySizeTurnsAndSquaresThePixels(
    coded: (Int, Int, Double?, Double, Int, Int)
  ) {
    let shape = VideoFrameShape(
      codedWidth: coded.0, codedHeight: coded.1, rotation: coded.2, sampleAspect: coded.3)
    #expect(shape.displaySize == (coded.4, coded.5))
  }

  /// Packed RGB of `width × height` where each pixel's red is its column and green its row, times 40.
  func gridFrame(width: Int, height: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width { bytes += [UInt8(40 * x), UInt8(40 * y), 200] }
    }
    return bytes
  }

  @Test func aQuarterTurnClockwiseMovesTheBottomLeftPixelToTheTopLeft() throws {
    let device = try ScreenCatalog.named("iphone-16-pro")
    // FFmpeg's display rotation of −90° (counter-clockwise) is a quarter turn clockwise, as a
    // `rotate=90` tag asks.
    let shape = VideoFrameShape(codedWidth: 4, codedHeight: 2, rotation: -90, sampleAspect: 1)
    let frame = gridFrame(width: 4, height: 2)
    let source = try frame.withUnsafeBytes {
      try ViewfinderSource(firstFrame: $0, shape: shape, device: device)
    }
    #expect(source.width == 2 && source.height == 4)
    #expect(source.video == shape)
    #expect(source.pixels.count == 2 * 4 * 3)
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
      Array(source.pixels[(y * 2 + x) * 3..<(y * 2 + x) * 3 + 3])
    }
    #expect(pixel(0, 0) == [0, 40, 200])  // coded (0, 1), bottom left
    #expect(pixel(1, 0) == [0, 0, 200])  // coded (0, 0), top left
    #expect(pixel(1, 3) == [120, 0, 200])  // coded (3, 0), top right
    // Later frames are shown the same way.
    let next = gridFrame(width: 4, height: 2).map { $0 / 2 }
    let shown = try next.withUnsafeBytes { try source.videoPixels(of: $0) }
    #expect(Array(shown[0..<3]) == [0, 20, 100])
  }

  @Test func framesAreScaledToTheViewfinderAndTheWidthLimit() throws {
    let device = try ScreenCatalog.named("iphone-16-pro")
    let shape = VideoFrameShape(codedWidth: 400, codedHeight: 200, rotation: nil, sampleAspect: 1)
    let frame = [UInt8](repeating: 90, count: 400 * 200 * 3)
    let source = try frame.withUnsafeBytes {
      try ViewfinderSource(firstFrame: $0, shape: shape, device: device, maxWidth: 100)
    }
    #expect(source.width == 100 && source.height == 50)
    #expect(source.pixels.count == 100 * 50 * 3)
    #expect(source.pixels.allSatisfy { abs(Int($0) - 90) <= 1 })
  }

  @Test func aFrameOfTheWrongSizeAndAStillAreRefused() throws {
    let device = try ScreenCatalog.named("iphone-16-pro")
    let shape = VideoFrameShape(codedWidth: 4, codedHeight: 2, rotation: nil, sampleAspect: 1)
    let short = [UInt8](repeating: 0, count: 5)
    #expect(throws: RenderError.self) {
      try short.withUnsafeBytes {
        try ViewfinderSource(firstFrame: $0, shape: shape, device: device)
      }
    }
    let frame = gridFrame(width: 4, height: 2)
    var still = try frame.withUnsafeBytes {
      try ViewfinderSource(firstFrame: $0, shape: shape, device: device)
    }
    still.video = nil
    let error = #expect(throws: RenderError.self) {
      try frame.withUnsafeBytes { try still.videoPixels(of: $0) }
    }
    #expect(error?.message.contains("still") == true)
  }
}
