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

  /// An HDR frame (16-bit codes) at 1080p is scaled for the viewfinder by FrameDial's 16-bit Lanczos 3
  /// kernels: the same picture as libvips's own Lanczos 3 resampling gives, in the same 16-bit layout,
  /// within less than an 8-bit code.
  @Test func anHDRFrameIsScaledAsLibvipsScalesIt() throws {
    let device = try ScreenCatalog.named("iphone-16-pro")
    let (width, height) = (1920, 1080)
    var samples = [UInt16](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let index = (y * width + x) * 3
        samples[index] = UInt16(x * 65535 / (width - 1))
        samples[index + 1] = UInt16(y * 65535 / (height - 1))
        samples[index + 2] = UInt16(20000 + 20000 * sin(Double(x + y) / 150))
      }
    }
    let shape = VideoFrameShape(
      codedWidth: width, codedHeight: height, rotation: nil, sampleAspect: 1)
    let source = try samples.withUnsafeBytes {
      try ViewfinderSource(firstFrame: $0, shape: shape, device: device, encoding: .bt2100HLG)
    }
    #expect(source.width < width && source.height < height)
    let reference = try Image.fromPixels16(samples, width: width, height: height, bands: 3)
      .resized(
        by: Double(source.width) / Double(width), vscale: Double(source.height) / Double(height)
      ).cast(to: .ushort)
    let theirs = try reference.pixelBytes().withUnsafeBytes {
      Array($0.bindMemory(to: UInt16.self))
    }
    let ours = source.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    #expect(ours.count == source.width * source.height * 3 && theirs.count == ours.count)
    guard theirs.count == ours.count else { return }
    let differences = zip(ours, theirs).map { abs(Int($0) - Int($1)) }
    let mean = Double(differences.reduce(0, +)) / Double(differences.count)
    // libvips's 16-bit resampling weighs in fixed point, which moves its values by a few tens of
    // codes; a shift by a pixel, a swapped axis or band would move these ramps by thousands.
    #expect(mean < 40, "mean difference \(mean)")
    #expect((differences.max() ?? 0) <= 256, "largest \(differences.max() ?? 0)")
  }

  /// Writing into a buffer gives the pixels a new array gets, reuses the buffer's memory when it is
  /// the viewfinder's size and no other array shares it, and replaces a buffer of another size.
  @Test func aFrameWrittenIntoABufferReusesItsMemory() throws {
    let device = try ScreenCatalog.named("iphone-16-pro")
    let shape = VideoFrameShape(codedWidth: 640, codedHeight: 360, rotation: 90, sampleAspect: 1)
    let frames = (0..<2).map { seed in
      (0..<(640 * 360 * 3 * 2)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9 &+ seed * 77) }
    }
    let source = try frames[0].withUnsafeBytes {
      try ViewfinderSource(firstFrame: $0, shape: shape, device: device, encoding: .bt2100HLG)
    }
    var buffer = [UInt8](repeating: 1, count: 5)
    for frame in frames {
      let fresh = try frame.withUnsafeBytes { try source.videoPixels(of: $0) }
      let before = buffer.withUnsafeBytes { $0.baseAddress }
      try frame.withUnsafeBytes { try source.videoPixels(of: $0, into: &buffer) }
      #expect(buffer.count == source.width * source.height * 6)
      #expect(buffer == fresh)
      let after = buffer.withUnsafeBytes { $0.baseAddress }
      // The first call replaces the 5-byte buffer; the second writes into the same memory.
      #expect((before == after) == (frame == frames[1]))
    }
    let shared = buffer
    try frames[0].withUnsafeBytes { try source.videoPixels(of: $0, into: &buffer) }
    #expect(shared != buffer, "the array sharing the old pixels kept them")
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
