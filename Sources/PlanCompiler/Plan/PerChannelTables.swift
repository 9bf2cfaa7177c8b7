/// The lookup tables of a colour program without channel mixing: one table per channel, code in → code out.
///
/// Layout is channel-major: the output of channel `c` (0 = R, 1 = G, 2 = B) for input code `v` is
/// `table8[c * 256 + v]` at 8 bits and `table16[c * 65536 + v]` at 16 bits. When the plan treats channels
/// alike, the three tables are equal and a one-band image can use the first.
public final class PerChannelTables: Sendable {
  /// 3 × 256 output codes, channel-major.
  public let table8: [UInt8]
  private let lazyTable16: LazyTable<[UInt16]>

  /// 3 × 65536 output codes, channel-major; built on first use (a few milliseconds), then kept.
  public var table16: [UInt16] { lazyTable16.value }

  init(
    gains: SIMD3<Double>, domain: ColourPipeline.Domain, transfer: OutputTransfer,
    thresholds8: OutputThresholds
  ) {
    table8 = PerChannelTables.build(gains: gains, domain: domain, thresholds: thresholds8)
    lazyTable16 = LazyTable {
      PerChannelTables.build(
        gains: gains, domain: domain,
        thresholds: OutputThresholds(transfer: transfer, maxCode: 65535))
    }
  }

  private static func build<Code: FixedWidthInteger>(
    gains: SIMD3<Double>, domain: ColourPipeline.Domain, thresholds: OutputThresholds
  ) -> [Code] {
    let levels = thresholds.maxCode + 1
    var table = [Code](repeating: 0, count: 3 * levels)
    let bounds = thresholds.thresholds(for: domain)
    let decoded =
      domain == .linear
      ? DecodedLevels.levels(maxCode: thresholds.maxCode, transfer: thresholds.transfer.signal) : []
    let scale = 1 / Double(thresholds.maxCode)
    for channel in 0..<3 {
      let gain = gains[channel]
      let offset = channel * levels
      switch domain {
      case .encoded:
        OutputThresholds.fill(&table, offset: offset, count: levels, thresholds: bounds) {
          Double($0) * scale
        }
      case .linear where gain > 0:
        OutputThresholds.fill(&table, offset: offset, count: levels, thresholds: bounds) {
          decoded[$0] * gain
        }
      case .linear:
        OutputThresholds.fill(&table, offset: offset, count: levels, thresholds: bounds) { _ in 0 }
      }
    }
    return table
  }
}
