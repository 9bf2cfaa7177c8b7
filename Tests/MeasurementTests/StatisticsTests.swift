import Testing

@testable import Measurement

@Suite struct StatisticsTests {
  @Test func medianOfOddAndEvenCounts() {
    #expect(Statistics.median(sorted: [1, 2, 3, 4, 5]) == 3)
    #expect(Statistics.median(sorted: [1, 2, 3, 10]) == 2.5)
    #expect(Statistics.median(sorted: [7]) == 7)
    #expect(Statistics.median(sorted: []).isNaN)
  }

  @Test func nearestRankPercentiles() {
    let tenValues: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    #expect(Statistics.percentile(50, sorted: tenValues) == 5)  // rank ceil(5) = 5
    #expect(Statistics.percentile(90, sorted: tenValues) == 9)  // rank 9
    #expect(Statistics.percentile(91, sorted: tenValues) == 10)  // rank ceil(9.1) = 10
    #expect(Statistics.percentile(99, sorted: tenValues) == 10)
    #expect(Statistics.percentile(0, sorted: tenValues) == 1)  // rank clamped to 1
    #expect(Statistics.percentile(100, sorted: tenValues) == 10)
    let hundred = (1...200).map(Double.init)
    #expect(Statistics.percentile(99, sorted: hundred) == 198)  // rank 198 of 200
    #expect(Statistics.percentile(99, sorted: []).isNaN)
  }

  @Test func summaryOfAnUnsortedSample() throws {
    let summary = try #require(Summary([5, 1, 4, 2, 3, 100]))
    #expect(summary.count == 6)
    #expect(summary.min == 1)
    #expect(summary.max == 100)
    #expect(summary.median == 3.5)
    #expect(summary.p99 == 100)  // rank ceil(5.94) = 6
    #expect(summary.mean == 115.0 / 6)
    let scaled = summary.scaled(by: 1000)
    #expect(scaled.median == 3500 && scaled.p99 == 100_000 && scaled.count == 6)
  }

  @Test func emptyOrNaNSamplesHaveNoSummary() {
    #expect(Summary([]) == nil)
    #expect(Summary([1, .nan]) == nil)
  }
}
