/// Estimates the quality setting a JPEG was saved with from its quantisation tables, as ImageMagick
/// does: the tables of the IJG encoder (libjpeg, and libvips through it) are JPEG Annex K's standard
/// tables scaled by the quality, so the quality whose scaled tables lie nearest to the file's is the
/// one it was saved with. A file from another encoder (a camera's own tables) gets the nearest IJG
/// quality.
public enum JPEGQuality {
  /// JPEG Annex K.1: the standard luminance table, natural (row-major) order.
  public static let standardLuminance: [Int] = [
    16, 11, 10, 16, 24, 40, 51, 61,
    12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77,
    24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101,
    72, 92, 95, 98, 112, 100, 103, 99,
  ]

  /// JPEG Annex K.2: the standard chrominance table, natural order.
  public static let standardChrominance: [Int] = [
    17, 18, 24, 47, 99, 99, 99, 99,
    18, 21, 26, 66, 99, 99, 99, 99,
    24, 26, 56, 99, 99, 99, 99, 99,
    47, 66, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99,
  ]

  /// `standard` scaled for `quality` (1 … 100) by the IJG formula: scale = 5000 / q below 50, else
  /// 200 − 2q; each entry (entry × scale + 50) / 100, kept within 1 … 255 (baseline JPEG).
  public static func table(_ standard: [Int], quality: Int) -> [Int] {
    let q = min(max(quality, 1), 100)
    let scale = q < 50 ? 5000 / q : 200 - 2 * q
    return standard.map { min(max(($0 * scale + 50) / 100, 1), 255) }
  }

  /// The IJG quality 1 … 100 whose tables are nearest to `luminance` (and `chrominance`, when the file
  /// has one): the smallest sum of absolute differences, entry by entry; on a tie, the higher quality.
  /// Tables must hold 64 entries in natural order; missing entries count as far off.
  public static func estimate(luminance: [Int], chrominance: [Int]? = nil) -> Int {
    var best = (quality: 100, distance: Int.max)
    for quality in stride(from: 100, through: 1, by: -1) {
      var distance = Self.distance(luminance, scaled[quality - 1].luminance)
      if let chrominance {
        distance += Self.distance(chrominance, scaled[quality - 1].chrominance)
      }
      if distance < best.distance { best = (quality, distance) }
    }
    return best.quality
  }

  /// The scaled standard tables for qualities 1 … 100.
  private static let scaled: [(luminance: [Int], chrominance: [Int])] = (1...100).map {
    (table(standardLuminance, quality: $0), table(standardChrominance, quality: $0))
  }

  private static func distance(_ table: [Int], _ reference: [Int]) -> Int {
    var sum = 0
    for index in 0..<64 {
      sum += index < table.count ? abs(table[index] - reference[index]) : 255
    }
    return sum
  }
}
