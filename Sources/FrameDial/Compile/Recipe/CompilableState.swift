import Controls

/// A control state with every value brought into its documented range, as the compiler reads it, with the
/// encoding of the pictures it will be applied to.
///
/// Non-finite numbers become the identity value; finite ones are clamped. Tint only matters with a preset or
/// kelvin white balance and is zeroed otherwise, so states that render alike compile alike.
struct CompilableState: Hashable {
  var exposureBias: Double
  var zoom: Double
  var zoomCenter: ZoomCenter
  var contrast: Double
  var saturation: Double
  var whiteBalance: WhiteBalance
  var tint: Double
  var filter: Filter
  var encoding: ColourEncoding

  init(_ state: ControlState, encoding: ColourEncoding = .sRGB) {
    self.encoding = encoding
    exposureBias = clamped(state.exposureBias, to: -8...8, otherwise: 0)
    zoom = clamped(state.zoom, to: 1...16, otherwise: 1)
    zoomCenter = ZoomCenter(
      x: clamped(state.zoomCenter.x, to: 0...1, otherwise: 0.5),
      y: clamped(state.zoomCenter.y, to: 0...1, otherwise: 0.5))
    contrast = clamped(state.contrast, to: 0...2, otherwise: 1)
    saturation = clamped(state.saturation, to: 0...2, otherwise: 1)
    filter = state.filter
    switch state.whiteBalance {
    case .kelvin(let kelvin):
      whiteBalance = kelvin.isFinite ? .kelvin(min(max(kelvin, 1667), 25000)) : .none
    case .none, .auto, .preset:
      whiteBalance = state.whiteBalance
    }
    switch whiteBalance {
    case .kelvin, .preset:
      tint = clamped(state.tint, to: -150...150, otherwise: 0)
    case .none, .auto:
      tint = 0
    }
  }

  /// The fields that change colours (everything but zoom), the key of the colour-program memo.
  var colorKey: CompilableState {
    var key = self
    key.zoom = 1
    key.zoomCenter = .center
    return key
  }
}

private func clamped(_ value: Double, to range: ClosedRange<Double>, otherwise fallback: Double)
  -> Double
{
  guard value.isFinite else { return fallback }
  return min(max(value, range.lowerBound), range.upperBound)
}
