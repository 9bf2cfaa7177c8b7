/// For each output code `q ≥ 1`, the smallest input to the output transfer whose result quantizes to `q` or more.
///
/// The output chain (clip negatives, encode, curve, contrast, clip, round half up) never decreases, so the code of
/// a value is the number of thresholds at or below it. Thresholds come from inverting the chain once per code —
/// `(q − 0.5) / maxCode` through inverse contrast, inverse curve and, for linear input, the transfer's decoding — which
/// replaces a transcendental call per table entry with one per output code, and is exact up to rounding of ties.
struct OutputThresholds: Sendable {
  /// The largest output code (255 or 65535).
  let maxCode: Int
  /// Thresholds on encoded values (before the curve): `encoded[q − 1]` for code `q`.
  let encoded: [Double]
  /// Thresholds on linear light (before encoding): `linear[q − 1]` for code `q`; `−∞` when every value reaches it.
  let linear: [Double]

  /// The output chain the thresholds invert.
  let transfer: OutputTransfer

  init(transfer: OutputTransfer, maxCode: Int) {
    self.maxCode = maxCode
    self.transfer = transfer
    var encoded = [Double](repeating: 0, count: maxCode)
    var linear = [Double](repeating: 0, count: maxCode)
    let (k, pivot) = (transfer.contrast, transfer.pivot)
    let constantCode = OutputQuantization.code(pivot, maxCode: maxCode)
    for q in 1...maxCode {
      let threshold: Double
      if k == 0 {
        threshold = q <= constantCode ? -.infinity : .infinity
      } else {
        let contrasted = (Double(q) - 0.5) / Double(maxCode)
        let beforeContrast = (contrasted - pivot) / k + pivot
        threshold = transfer.curve?.inverse(beforeContrast) ?? beforeContrast
      }
      encoded[q - 1] = threshold
      linear[q - 1] = threshold <= 0 ? -.infinity : transfer.signal.decode(threshold)
    }
    self.encoded = encoded
    self.linear = linear
  }

  /// The thresholds for one domain.
  func thresholds(for domain: ColourPipeline.Domain) -> [Double] {
    domain == .linear ? linear : encoded
  }

  /// Writes the code of `count` non-decreasing values into `table[offset ..< offset + count]`.
  static func fill<Code: FixedWidthInteger>(
    _ table: inout [Code], offset: Int, count: Int, thresholds: [Double], value: (Int) -> Double
  ) {
    var code = 0
    for index in 0..<count {
      let v = value(index)
      while code < thresholds.count && thresholds[code] <= v {
        code += 1
      }
      table[offset + index] = Code(code)
    }
  }
}
