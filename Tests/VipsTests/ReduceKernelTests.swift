import Foundation
import Testing

@testable import Vips

/// The horizontal Lanczos 3 reduction kernel against the double-precision definition in its header, and
/// ``Image/thumbnailed(width:height:)`` (which uses it) against libvips's own Lanczos 3 resampling.
@Suite struct ReduceKernelTests {
  static func lanczos3(_ x: Double) -> Double {
    if x == 0 { return 1 }
    if abs(x) >= 3 { return 0 }
    let px = Double.pi * x
    return 3 * sin(px) * sin(px / 3) / (px * px)
  }

  /// Output column `x` of one band of `row` (values of one band), per the header, unrounded.
  static func expected(_ row: [Double], x: Int, width: Int) -> Double {
    let shrink = Double(row.count) / Double(width)
    let support = 3 * max(shrink, 1)
    let centre = (Double(x) + 0.5) * shrink - 0.5
    let first = Int((centre - support).rounded(.down)) + 1
    let taps = Int((2 * support).rounded(.up)) + 1
    var (sum, total) = (0.0, 0.0)
    for position in first..<(first + taps) {
      let weight = lanczos3((Double(position) - centre) / (support / 3))
      sum += weight * row[min(max(position, 0), row.count - 1)]
      total += weight
    }
    return sum / total
  }

  /// Sizes with and without whole chunks of 16 columns, shrinks of 1 to 10 (wide shrinks take the scalar
  /// path), and 1 to 4 bands.
  @Test(arguments: [
    (4000, 2, 2048, 3), (37, 3, 19, 1), (301, 2, 160, 4), (100, 1, 100, 3), (1000, 2, 333, 2),
    (2000, 1, 200, 3), (65, 4, 64, 1), (17, 2, 1, 3), (515, 2, 257, 3),
  ])
  func reductionMatchesTheLanczosDefinition(inWidth: Int, height: Int, width: Int, bands: Int)
    throws
  {
    try onEveryKernelPath { path in
      var random = KernelTests.Seeded(state: UInt64(inWidth * 31 + width * 7 + bands))
      let pixels = (0..<(inWidth * height * bands)).map { _ in
        UInt8(truncatingIfNeeded: random.next())
      }
      let result = try Image.fromPixels(pixels, width: inWidth, height: height, bands: bands)
        .reducedHorizontally(toWidth: width).pixelBytes()
      #expect(result.count == width * height * bands)
      guard result.count == width * height * bands else { return }
      var worst = 0.0
      for y in 0..<height {
        for band in 0..<bands {
          let row = (0..<inWidth).map { Double(pixels[(y * inWidth + $0) * bands + band]) }
          for x in 0..<width {
            let exact = min(max(Self.expected(row, x: x, width: width), 0), 255)
            worst = max(worst, abs(Double(result[(y * width + x) * bands + band]) - exact))
          }
        }
      }
      // Rounding to a code (0.5) plus the 14-bit weights' rounding.
      #expect(worst < 0.6, "\(path): worst difference \(worst)")
    }
  }

  /// Regions that start inside a row (here through a crop) give the same pixels as whole rows.
  @Test(arguments: [1, 3, 4])
  func croppedRegionsMatchWholeRows(bands: Int) throws {
    try onEveryKernelPath { path in
      var random = KernelTests.Seeded(state: UInt64(bands + 40))
      let pixels = (0..<(900 * 3 * bands)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let reduced = try Image.fromPixels(pixels, width: 900, height: 3, bands: bands)
        .reducedHorizontally(toWidth: 461)
      let whole = try reduced.pixelBytes()
      let crop = try reduced.extractArea(left: 5, top: 0, width: 403, height: 3).pixelBytes()
      var mismatches = 0
      for y in 0..<3 {
        for value in 0..<(403 * bands)
        where crop[y * 403 * bands + value] != whole[(y * 461 + 5) * bands + value] {
          mismatches += 1
        }
      }
      #expect(mismatches == 0, "\(path)")
    }
  }

  /// The fast path of `thumbnailed` (an RGB photo shrunk by 1.95, as `--size 2048` does to 12-megapixel
  /// photos) stays within a code value or so of libvips's Lanczos 3 `resize`, on average far closer.
  @Test func thumbnailedMatchesLibvipsLanczos() throws {
    let photo = try Image(contentsOf: Samples.path("rocket.jpg"))
    let (width, height) = (photo.width * 1000 / 1953, photo.height * 1000 / 1953)
    let ours = try photo.thumbnailed(width: width, height: height)
    let theirs = try photo.resized(
      by: Double(width) / Double(photo.width), vscale: Double(height) / Double(photo.height))
    #expect(ours.width == width && ours.height == height && theirs.width == width)
    let (a, b) = (try ours.pixelBytes(), try theirs.pixelBytes())
    #expect(a.count == b.count)
    guard a.count == b.count else { return }
    let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
    let mean = Double(differences.reduce(0, +)) / Double(differences.count)
    #expect(mean < 0.25, "mean difference \(mean)")
    #expect((differences.max() ?? 0) <= 3, "largest difference \(differences.max() ?? 0)")
  }

  /// The 16-bit samples of `image`, as stored (little-endian on every machine FrameDial runs on).
  static func samples16(_ image: Image) throws -> [UInt16] {
    try image.pixelBytes().withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
  }

  /// The 16-bit kernels, rows then columns, against the same double-precision definition applied along
  /// each axis: shrinks of 1 to 3.5 on either axis (the HDR viewfinder's 1080p to 1206 × 678 among them),
  /// one axis alone, 1 to 4 bands, values across the whole 16-bit range.
  @Test(arguments: [
    (1920, 1080, 1206, 678, 3), (37, 23, 19, 23, 1), (64, 70, 64, 20, 4), (301, 9, 86, 5, 2),
    (17, 17, 1, 1, 3),
  ])
  func sixteenBitReductionMatchesTheLanczosDefinition(
    inWidth: Int, inHeight: Int, width: Int, height: Int, bands: Int
  ) throws {
    var random = KernelTests.Seeded(state: UInt64(inWidth * 131 + height * 7 + bands))
    let samples = (0..<(inWidth * inHeight * bands)).map { _ in
      UInt16(truncatingIfNeeded: random.next())
    }
    let result = try Self.samples16(
      Image.fromPixels16(samples, width: inWidth, height: inHeight, bands: bands)
        .reducedByLanczos3(toWidth: width, height: height))
    #expect(result.count == width * height * bands)
    guard result.count == width * height * bands else { return }
    // Rows first, as the kernels run: each column of the input reduced to `height`, then each row of
    // that (unrounded) reduced to `width`.
    var rows = [Double](repeating: 0, count: inWidth * height * bands)
    for band in 0..<bands {
      for x in 0..<inWidth {
        let column = (0..<inHeight).map { Double(samples[($0 * inWidth + x) * bands + band]) }
        for y in 0..<height {
          rows[(y * inWidth + x) * bands + band] =
            height < inHeight ? Self.expected(column, x: y, width: height) : column[y]
        }
      }
    }
    var worst = 0.0
    for band in 0..<bands {
      for y in 0..<height {
        let row = (0..<inWidth).map {
          min(max(rows[(y * inWidth + $0) * bands + band], 0), 65535).rounded()
        }
        for x in 0..<width {
          let exact =
            width < inWidth ? Self.expected(row, x: x, width: width) : row[x]
          let clamped = min(max(exact, 0), 65535)
          worst = max(worst, abs(Double(result[(y * width + x) * bands + band]) - clamped))
        }
      }
    }
    // The final rounding (0.5) and single precision (well under 0.1); where the rows pass sits on a
    // half code, its rounding may go the other way and move one tap by a code (at most its weight, 1).
    #expect(worst < 1.6, "worst difference \(worst)")
  }

  /// The 16-bit reduction refuses what it cannot do, with a message naming it.
  @Test func sixteenBitReductionRefusesEightBitsAndEnlargement() throws {
    let eight = try Image.fromPixels(
      [UInt8](repeating: 9, count: 12), width: 2, height: 2, bands: 3)
    #expect(throws: VipsError("the 16-bit Lanczos 3 reduction needs a 16-bit image, not uchar")) {
      try eight.reducedByLanczos3(toWidth: 1, height: 1)
    }
    let sixteen = try Image.fromPixels16(
      [UInt16](repeating: 9, count: 12), width: 2, height: 2, bands: 3)
    #expect(throws: VipsError("cannot reduce 2×2 pixels to 3×2")) {
      try sixteen.reducedByLanczos3(toWidth: 3, height: 2)
    }
  }

  /// Regions that start inside the image (here through a crop) give the same samples as the whole.
  @Test func sixteenBitCroppedRegionsMatchTheWhole() throws {
    var random = KernelTests.Seeded(state: 77)
    let samples = (0..<(300 * 200 * 3)).map { _ in UInt16(truncatingIfNeeded: random.next()) }
    let reduced = try Image.fromPixels16(samples, width: 300, height: 200, bands: 3)
      .reducedByLanczos3(toWidth: 170, height: 110)
    let whole = try Self.samples16(reduced)
    let crop = try Self.samples16(reduced.extractArea(left: 13, top: 41, width: 101, height: 37))
    var mismatches = 0
    for y in 0..<37 {
      for value in 0..<(101 * 3)
      where crop[y * 101 * 3 + value] != whole[((y + 41) * 170 + 13) * 3 + value] {
        mismatches += 1
      }
    }
    #expect(mismatches == 0)
  }
}
