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
}
