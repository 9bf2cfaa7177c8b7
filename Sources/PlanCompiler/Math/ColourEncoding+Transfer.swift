import ColourTransfer
import Foundation

extension ColourEncoding.Transfer {
  /// The light of a signal value, in the units the controls act on: linear sRGB light (0 … 1), HLG scene
  /// light (0 … 1), or PQ display light with 203 cd/m² as 1.0 (0 … 49.26).
  public func decode(_ signal: Double) -> Double {
    switch self {
    case .sRGB: SRGBTransfer.decode(signal)
    case .hlg: HLGTransfer.decode(signal)
    case .pq: PQTransfer.decode(signal)
    }
  }

  /// The signal value of light (the inverse of ``decode(_:)``), extending above the signal's top.
  public func encode(_ light: Double) -> Double {
    switch self {
    case .sRGB: SRGBTransfer.encode(light)
    case .hlg: HLGTransfer.encode(light)
    case .pq: PQTransfer.encode(light)
    }
  }

  /// The light of reference (diffuse) white: 1 for sRGB and PQ (203 cd/m²), `decode(0.75) ≈ 0.265` for HLG
  /// (BT.2408's 75 % signal).
  public var referenceWhite: Double {
    switch self {
    case .sRGB, .pq: 1
    case .hlg: HLGTransfer.decode(0.75)
    }
  }

  /// The signal value contrast pivots on: 0.5 for sRGB (the contract's mid-grey), and for HLG and PQ the
  /// signal of 18 % of reference white (HLG ≈ 0.378, PQ ≈ 0.411), the grey a scene's reference white
  /// implies rather than half of a range whose top is highlights.
  public var contrastPivot: Double {
    switch self {
    case .sRGB: 0.5
    case .hlg, .pq: encode(0.18 * referenceWhite)
    }
  }

  /// True when 8-bit output tables can index linear light uniformly (sRGB's encode has a bounded slope);
  /// HLG and PQ, infinitely steep at black, index by `sqrt(L)` at every depth.
  var indexesLinearlyAt8Bits: Bool { self == .sRGB }

  /// Table entries per unit of `L` (linear) or of `sqrt(L)` (square root) so that the output moves by at
  /// most 0.7 code between an entry and the middle of its neighbours, for an output chain of
  /// `codesPerSignal` codes per unit of signal (the steepest slope of curve and contrast × the top code).
  func tableScale(squareRoot: Bool, codesPerSignal: Double) -> Double {
    switch self {
    case .sRGB:
      let steepest =
        squareRoot
        ? 2 * SRGBTransfer.linearSlope * SRGBTransfer.encodeThreshold.squareRoot()
        : SRGBTransfer.linearSlope
      return steepest * codesPerSignal / 1.4
    case .hlg:
      return HLGTransfer.squareRootSlope * codesPerSignal / 1.4
    case .pq:
      return PQTransfer.squareRootTableScale(codesPerSignal: codesPerSignal)
    }
  }
}

extension PQTransfer {
  /// The square-root table scale for PQ: `encode(s²)` is infinitely steep at `s = 0`, so the first half
  /// step (from black to `s_b`, where the signal has risen by 0.7 code) bounds the scale from below, and
  /// the steepest slope measured on a logarithmic grid from `s_b` to the top bounds it elsewhere.
  static func squareRootTableScale(codesPerSignal: Double) -> Double {
    guard codesPerSignal > 0 else { return 1 }
    let black = encode(0)
    let rise = 0.7 / codesPerSignal
    // Bisection on log(s): encode(s²) − black grows with s.
    var (low, high) = (-40.0, log(2 * (peak / referenceWhite).squareRoot()))
    for _ in 0..<80 {
      let middle = (low + high) / 2
      let s = exp(middle)
      if encode(s * s) - black > rise { high = middle } else { low = middle }
    }
    let firstStep = exp(low)
    var steepest = 0.0
    let top = log(2 * (peak / referenceWhite).squareRoot())
    let steps = 4000
    var previous = (s: firstStep, signal: encode(firstStep * firstStep))
    for step in 1...steps {
      let s = exp(low + (top - low) * Double(step) / Double(steps))
      let signal = encode(s * s)
      steepest = max(steepest, (signal - previous.signal) / (s - previous.s))
      previous = (s, signal)
    }
    return max(0.5 / firstStep, steepest * codesPerSignal / 1.4)
  }
}
