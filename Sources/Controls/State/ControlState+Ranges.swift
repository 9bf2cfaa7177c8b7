import Foundation

extension ControlState {
  /// Allowed exposure bias in EV.
  public static let exposureBiasRange: ClosedRange<Double> = -8...8
  /// Allowed zoom factor.
  public static let zoomRange: ClosedRange<Double> = 1...16
  /// Allowed value of each zoom-centre coordinate.
  public static let zoomCenterRange: ClosedRange<Double> = 0...1
  /// Allowed contrast.
  public static let contrastRange: ClosedRange<Double> = 0...2
  /// Allowed saturation.
  public static let saturationRange: ClosedRange<Double> = 0...2
  /// Allowed colour temperature in kelvin for `WhiteBalance.kelvin`.
  public static let kelvinRange: ClosedRange<Double> = 1667...25000
  /// Allowed tint.
  public static let tintRange: ClosedRange<Double> = -150...150

  /// Checks every value against its range and returns the state unchanged.
  ///
  /// - Throws: `ControlStateError` naming the first key whose value is not finite or out of range.
  public func validated() throws(ControlStateError) -> ControlState {
    for key in ControlKey.allCases {
      switch key.descriptor.kind {
      case .number(let range, _, let value): try key.check(self[keyPath: value], in: range)
      case .point(let range):
        try key.check(zoomCenter.x, in: range)
        try key.check(zoomCenter.y, in: range)
      case .whiteBalance(let range):
        if case .kelvin(let kelvin) = whiteBalance { try key.check(kelvin, in: range) }
      case .filter, .toggle: break
      }
    }
    return self
  }
}

extension ControlKey {
  /// Throws unless `value` is finite and inside `range`.
  func check(_ value: Double, in range: ClosedRange<Double>) throws(ControlStateError) {
    guard value.isFinite else {
      throw .notFinite(key: cliName, value: String(value), allowed: allowedValues)
    }
    guard range.contains(value) else {
      // Every digit it has: 16.0000001 is out of 1 … 16, and must not read as 16.
      throw .outOfRange(key: cliName, value: NumberText.shortest(value), allowed: allowedValues)
    }
  }
}
