import Foundation

extension ControlState {
  /// Allowed exposure bias in EV (each range here is its key's ``ControlDescriptor/range``).
  public static let exposureBiasRange = range(of: .exposureBias)
  /// Allowed zoom factor.
  public static let zoomRange = range(of: .zoom)
  /// Allowed value of each zoom-centre coordinate.
  public static let zoomCenterRange = range(of: .zoomCenter)
  /// Allowed contrast.
  public static let contrastRange = range(of: .contrast)
  /// Allowed saturation.
  public static let saturationRange = range(of: .saturation)
  /// Allowed colour temperature in kelvin for `WhiteBalance.kelvin`.
  public static let kelvinRange = range(of: .whiteBalance)
  /// Allowed tint.
  public static let tintRange = range(of: .tint)

  /// The range of `key`'s numbers; every key named above has one (0 … 0 stands for none).
  private static func range(of key: ControlKey) -> ClosedRange<Double> {
    key.descriptor.range ?? 0...0
  }

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

  /// The state with every value brought into its range, as the compiler reads a state: a finite number
  /// outside is clamped to the nearer end, a number that is not finite reads as the identity's, and a
  /// temperature that is not finite as the identity's white balance (none). Words and toggles are kept.
  package func clamped() -> ControlState {
    var state = self
    let identity = ControlState.identity
    for key in ControlKey.allCases {
      switch key.descriptor.kind {
      case .number(let range, _, let value):
        state[keyPath: value] = Self.clamped(
          self[keyPath: value], to: range, otherwise: identity[keyPath: value])
      case .point(let range):
        state.zoomCenter = ZoomCenter(
          x: Self.clamped(zoomCenter.x, to: range, otherwise: identity.zoomCenter.x),
          y: Self.clamped(zoomCenter.y, to: range, otherwise: identity.zoomCenter.y))
      case .whiteBalance(let range):
        if case .kelvin(let kelvin) = whiteBalance {
          state.whiteBalance =
            kelvin.isFinite
            ? .kelvin(min(max(kelvin, range.lowerBound), range.upperBound)) : identity.whiteBalance
        }
      case .filter, .toggle: break
      }
    }
    return state
  }

  private static func clamped(
    _ value: Double, to range: ClosedRange<Double>, otherwise fallback: Double
  ) -> Double {
    guard value.isFinite else { return fallback }
    return min(max(value, range.lowerBound), range.upperBound)
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
