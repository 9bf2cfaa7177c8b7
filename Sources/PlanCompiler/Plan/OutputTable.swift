import Foundation

/// A table from linear light to output codes, one per channel, read after the matrix of a mixing program.
///
/// Layout is channel-major: `values[c * count + index(L)]`. The index of a linear value `L` (a `Float`) is
///
/// - `.linear`: `index = clamp(Int(L * scale + 0.5), 0, count − 1)`,
/// - `.squareRoot`: `index = clamp(Int(sqrt(max(L, 0)) * scale + 0.5), 0, count − 1)`,
///
/// with negative or NaN arguments giving index 0. Entry `i` holds the exact code of `L = i / scale`
/// (`.squareRoot`: `L = (i / scale)²`). `scale` is chosen so the output changes by at most 0.7 code between an
/// entry and the middle of its neighbours, which keeps every pixel within ±1 code of the exact value; `count`
/// stops where the output saturates or where the gains and matrix can no longer reach.
public struct OutputTable<Code: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable {
  /// How a linear value becomes an index.
  public enum Indexing: Sendable, Hashable {
    /// `L * scale`: used at 8 bits.
    case linear
    /// `sqrt(L) * scale`: used at 16 bits, where a uniform grid in `L` would need millions of entries.
    case squareRoot
  }

  /// The indexing rule.
  public let indexing: Indexing
  /// Entries per unit of `L` (`.linear`) or of `sqrt(L)` (`.squareRoot`).
  public let scale: Float
  /// Entries per channel (`n`).
  public let count: Int
  /// `3 × count` output codes, channel-major.
  public let values: [Code]

  /// The largest `count` FrameDial builds; the chosen scales stay below it for every state in range. The
  /// largest tables are PQ's at 16 bits: PQ is so steep near black that a square-root index needs about
  /// 1.06 million entries a channel at contrast 1 (up to about 4 million at contrast 2 with a look's curve);
  /// sRGB and HLG need under 100 000.
  static var maximumCount: Int { 1 << 22 }

  /// The table for the output chain behind `thresholds`, for linear values up to `reach`.
  init(indexing: Indexing, transfer: OutputTransfer, thresholds: OutputThresholds, reach: Double) {
    self.indexing = indexing
    let codesPerSignal = transfer.maximumSlope * Double(thresholds.maxCode)
    let scale = Float(
      max(
        transfer.signal.tableScale(
          squareRoot: indexing == .squareRoot, codesPerSignal: codesPerSignal), 1))
    self.scale = scale
    let saturation = thresholds.linear.last ?? 0
    let top = min(saturation.isFinite ? saturation : reach, reach)
    let span = top <= 0 ? 0 : (indexing == .linear ? top : top.squareRoot())
    let count = min(Int((span * Double(scale)).rounded(.up)) + 1, OutputTable.maximumCount)
    self.count = count
    var values = [Code](repeating: 0, count: 3 * count)
    let step = 1 / Double(scale)
    OutputThresholds.fill(&values, offset: 0, count: count, thresholds: thresholds.linear) {
      index in
      let position = Double(index) * step
      return indexing == .linear ? position : position * position
    }
    for channel in 1..<3 {
      values.replaceSubrange((channel * count)..<((channel + 1) * count), with: values[0..<count])
    }
    self.values = values
  }

  /// The index of linear value `L` under this table's rule.
  @inline(__always)
  public func index(_ linear: Float) -> Int {
    let position: Float
    switch indexing {
    case .linear:
      position = linear * scale + 0.5
    case .squareRoot:
      position = (linear > 0 ? linear.squareRoot() : 0) * scale + 0.5
    }
    guard position > 0 else { return 0 }
    return position >= Float(count - 1) ? count - 1 : Int(position)
  }
}
