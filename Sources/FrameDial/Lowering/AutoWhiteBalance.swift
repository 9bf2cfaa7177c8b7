import Foundation
import Vips

/// Grey-world white balance measured on an image (image-math.md, white balance `auto`).
///
/// The image is sampled on a grid of at most `sampleWidth` columns (libvips's `subsample`, which reads
/// only the sampled pixels); each sample is decoded to linear light with the picture's transfer (sRGB unless
/// given), and the pixels whose largest channel lies in (0.02 × reference white, 0.98 × the transfer's
/// top) — (0.02, 0.98) for sRGB — are averaged. Gains are `mean_G / mean_c`, clamped to 0.25 … 4, and 1
/// when fewer than 1 % of the samples qualify.
public enum AutoWhiteBalance {
  /// Stills are sampled up to this many columns wide (and proportionally high).
  public static let stillSampleWidth = 512
  /// Frames are sampled up to this many columns wide, every frame.
  public static let frameSampleWidth = 64

  /// The grey-world gains of the colour bands of `image` (8-bit or 16-bit codes of `transfer`), sampled to
  /// at most `sampleWidth` columns.
  public static func gains(
    of image: Image, sampleWidth: Int, transfer: ColourEncoding.Transfer = .sRGB
  ) throws -> SIMD3<Double> {
    let (xFactor, yFactor) = sampleFactors(
      width: image.width, height: image.height, sampleWidth: sampleWidth)
    var sample = image
    if xFactor > 1 || yFactor > 1 {
      sample = try Operation.call(
        "subsample", ["input": .image(image), "xfac": .int(xFactor), "yfac": .int(yFactor)]
      ).image()
    }
    if sample.format != .uchar { sample = try sample.colourspace("srgb") }
    let colourBands = sample.bands - (sample.hasAlpha ? 1 : 0)
    if colourBands != 3 { return SIMD3(1, 1, 1) }
    return gains(ofPixels: try sample.pixelBytes(), bands: sample.bands, transfer: transfer)
  }

  /// The steps between sampled columns and rows of a `width` × `height` image sampled to at most
  /// `sampleWidth` columns: the same step both ways, except that a picture far wider than high keeps at
  /// least one row (a 1920 × 29 frame sampled 64 wide is stepped 30 across and 29 down, not 30 and 30,
  /// which would leave no row at all).
  static func sampleFactors(width: Int, height: Int, sampleWidth: Int) -> (x: Int, y: Int) {
    let factor = max(1, width / max(1, sampleWidth))
    return (factor, max(1, min(factor, height)))
  }

  /// The grey-world gains of packed 8-bit pixels with `bands` bands (the first three are R, G, B), codes of
  /// `transfer`.
  public static func gains(
    ofPixels pixels: [UInt8], bands: Int, transfer: ColourEncoding.Transfer = .sRGB
  ) -> SIMD3<Double> {
    let decoded = DecodedLevels.levels(maxCode: 255, transfer: transfer)
    let (lowest, highest) = (0.02 * transfer.referenceWhite, 0.98 * transfer.decode(1))
    var sum = SIMD3<Double>(repeating: 0)
    var qualifying = 0
    var total = 0
    var index = 0
    while index + 2 < pixels.count {
      let linear = SIMD3(
        decoded[Int(pixels[index])], decoded[Int(pixels[index + 1])],
        decoded[Int(pixels[index + 2])])
      let largest = linear.max()
      if largest > lowest && largest < highest {
        sum += linear
        qualifying += 1
      }
      total += 1
      index += bands
    }
    guard total > 0, Double(qualifying) >= 0.01 * Double(total), sum.x > 0, sum.z > 0 else {
      return SIMD3(1, 1, 1)
    }
    let gains = SIMD3(sum.y / sum.x, 1, sum.y / sum.z)
    return gains.clamped(lowerBound: SIMD3(repeating: 0.25), upperBound: SIMD3(repeating: 4))
  }
}

/// Temporal smoothing of auto white balance on frames, so the picture does not flicker: each frame moves
/// the gains a fraction ``weight`` of the way (in log space) towards the frame's measurement, a time
/// constant of about four frames. The first measurement is taken as is.
///
/// A scene cut starts afresh: when a frame's measured gains differ from the previous frame's by more
/// than ``cutRatio`` in any channel (grey-world measurements of one scene move by a few per cent from
/// frame to frame; a cut to a scene under other light moves them by tens), the history is dropped and
/// the measurement taken as is, so the first frame after the cut is already balanced instead of
/// drifting for about eight frames.
public struct WhiteBalanceSmoother: Sendable {
  /// How far each frame moves towards its measurement, 0 … 1.
  public let weight: Double
  /// A jump between two frames' measured gains larger than this factor (either way, in any channel) is
  /// a scene cut.
  public let cutRatio: Double
  /// The current smoothed gains, nil before the first measurement.
  public private(set) var gains: SIMD3<Double>?
  /// Scene cuts detected so far.
  public private(set) var cuts = 0
  private var lastMeasured: SIMD3<Double>?

  /// Creates a smoother.
  public init(weight: Double = 0.25, cutRatio: Double = 1.3) {
    self.weight = weight
    self.cutRatio = cutRatio
  }

  /// Folds in one frame's measurement and returns the smoothed gains.
  public mutating func update(_ measured: SIMD3<Double>) -> SIMD3<Double> {
    defer { lastMeasured = measured }
    if let lastMeasured, isCut(from: lastMeasured, to: measured) {
      cuts += 1
      gains = nil
    }
    guard let previous = gains else {
      gains = measured
      return measured
    }
    var next = SIMD3<Double>()
    for channel in 0..<3 {
      next[channel] = exp((1 - weight) * log(previous[channel]) + weight * log(measured[channel]))
    }
    gains = next
    return next
  }

  /// True when the measurement jumps by more than ``cutRatio`` in a channel.
  private func isCut(from last: SIMD3<Double>, to measured: SIMD3<Double>) -> Bool {
    let limit = log(cutRatio)
    return (0..<3).contains { abs(log(measured[$0]) - log(last[$0])) > limit }
  }

  /// Forgets the history (after a cut, or when auto white balance is switched on again).
  public mutating func reset() {
    gains = nil
    lastMeasured = nil
  }
}
