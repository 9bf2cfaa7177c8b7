import Testing

@testable import JPEG

/// The quality estimate from quantisation tables alone: the IJG tables of every quality, and tables no
/// IJG quality makes.
@Suite struct JPEGQualityTests {
  @Test func theIJGTablesOfEveryQualityGiveThatQualityBack() {
    // No two qualities give the same tables, so every estimate is exact.
    for quality in 1...100 {
      let luminance = JPEGQuality.table(JPEGQuality.standardLuminance, quality: quality)
      let chrominance = JPEGQuality.table(JPEGQuality.standardChrominance, quality: quality)
      #expect(JPEGQuality.estimate(luminance: luminance, chrominance: chrominance) == quality)
      #expect(JPEGQuality.estimate(luminance: luminance) == quality)
    }
  }

  @Test func theScaledTablesFollowTheIJGFormula() {
    #expect(
      JPEGQuality.table(JPEGQuality.standardLuminance, quality: 50) == JPEGQuality.standardLuminance
    )
    #expect(JPEGQuality.table(JPEGQuality.standardLuminance, quality: 100).allSatisfy { $0 == 1 })
    // Quality 10: scale 500, so 16 → (16 × 500 + 50) / 100 = 80; 121 → 605, kept at 255.
    let ten = JPEGQuality.table(JPEGQuality.standardLuminance, quality: 10)
    #expect(ten[0] == 80 && ten[50] == 255)
    // Quality 90: scale 20, so 16 → 3 and 99 (chrominance) → 20.
    #expect(JPEGQuality.table(JPEGQuality.standardLuminance, quality: 90)[0] == 3)
    #expect(JPEGQuality.table(JPEGQuality.standardChrominance, quality: 90)[63] == 20)
  }

  @Test func tablesNoIJGQualityMakesGetTheNearest() {
    var luminance = JPEGQuality.table(JPEGQuality.standardLuminance, quality: 80)
    var chrominance = JPEGQuality.table(JPEGQuality.standardChrominance, quality: 80)
    for index in stride(from: 0, to: 64, by: 5) {
      luminance[index] += 1
      chrominance[index] = max(1, chrominance[index] - 1)
    }
    #expect(JPEGQuality.estimate(luminance: luminance, chrominance: chrominance) == 80)
    #expect(JPEGQuality.estimate(luminance: Array(repeating: 255, count: 64)) == 1)
    #expect(JPEGQuality.estimate(luminance: []) >= 1)
  }
}
