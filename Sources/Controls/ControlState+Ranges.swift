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
    try ControlKey.exposureBias.check(exposureBias, in: Self.exposureBiasRange)
    try ControlKey.zoom.check(zoom, in: Self.zoomRange)
    try ControlKey.zoomCenter.check(zoomCenter.x, in: Self.zoomCenterRange)
    try ControlKey.zoomCenter.check(zoomCenter.y, in: Self.zoomCenterRange)
    try ControlKey.contrast.check(contrast, in: Self.contrastRange)
    try ControlKey.saturation.check(saturation, in: Self.saturationRange)
    if case .kelvin(let kelvin) = whiteBalance {
      try ControlKey.whiteBalance.check(kelvin, in: Self.kelvinRange)
    }
    try ControlKey.tint.check(tint, in: Self.tintRange)
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
