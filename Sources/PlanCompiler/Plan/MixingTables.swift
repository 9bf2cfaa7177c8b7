/// The tables of a colour program that mixes channels: input table → 3×3 matrix → output table.
///
/// For a pixel `(r, g, b)` at 8 bits the fused kernel computes, in `Float`:
///
///     lin = (input8[r], input8[256 + g], input8[512 + b])            // decode × gains
///     out[c] = m[3c] * lin.0 + m[3c + 1] * lin.1 + m[3c + 2] * lin.2  // c = 0, 1, 2
///     code[c] = output8.values[c * output8.count + output8.index(out[c])]
///
/// At 16 bits the same with `input16[c * 65536 + v]` and `output16` (square-root indexing). `decode` is the
/// encoding's transfer; HLG and PQ index their 8-bit output tables by square root too.
public final class MixingTables: Sendable {
  /// 3 × 256 linear values (`decode(v / 255) × gain_c`), channel-major: `input8[c * 256 + v]`.
  public let input8: [Float]
  /// The merged matrix, row-major: `matrix[3 * row + column]`.
  public let matrix: [Float]
  /// Linear light to 8-bit codes, `.linear` indexing (`.squareRoot` for HLG and PQ).
  public let output8: OutputTable<UInt8>
  private let lazyInput16: LazyTable<[Float]>
  private let lazyOutput16: LazyTable<OutputTable<UInt16>>

  /// 3 × 65536 linear values, channel-major: `input16[c * 65536 + v]`; built on first use.
  public var input16: [Float] { lazyInput16.value }
  /// Linear light to 16-bit codes, `.squareRoot` indexing; built on first use.
  public var output16: OutputTable<UInt16> { lazyOutput16.value }

  init(
    gains: SIMD3<Double>, matrix: Matrix3, transfer: OutputTransfer, thresholds8: OutputThresholds
  ) {
    let signal = transfer.signal
    input8 = MixingTables.inputTable(
      gains: gains, levels: DecodedLevels.levels(maxCode: 255, transfer: signal))
    self.matrix = matrix.rowMajor.map { Float($0) }
    let reach = MixingTables.reach(gains: gains, matrix: matrix) * signal.decode(1)
    output8 = OutputTable(
      indexing: signal.indexesLinearlyAt8Bits ? .linear : .squareRoot, transfer: transfer,
      thresholds: thresholds8, reach: reach)
    lazyInput16 = LazyTable {
      MixingTables.inputTable(
        gains: gains, levels: DecodedLevels.levels(maxCode: 65535, transfer: signal))
    }
    lazyOutput16 = LazyTable {
      OutputTable(
        indexing: .squareRoot, transfer: transfer,
        thresholds: OutputThresholds(transfer: transfer, maxCode: 65535), reach: reach)
    }
  }

  private static func inputTable(gains: SIMD3<Double>, levels: [Double]) -> [Float] {
    var table = [Float](repeating: 0, count: 3 * levels.count)
    for channel in 0..<3 {
      let offset = channel * levels.count
      for (code, level) in levels.enumerated() {
        table[offset + code] = Float(level * gains[channel])
      }
    }
    return table
  }

  /// The largest linear value the matrix can produce from inputs in 0 … 1 times `gains`, with a little margin
  /// (times the transfer's top light by the caller).
  private static func reach(gains: SIMD3<Double>, matrix: Matrix3) -> Double {
    let largest =
      matrix.rows.map { row in
        let contributions = row * gains
        return contributions.replacing(with: 0, where: contributions .< 0).sum()
      }.max() ?? 0
    return largest * 1.001 + 1e-6
  }
}
