import Controls

/// A control state with every value brought into its documented range (``ControlState``'s ranges, which
/// the control descriptors publish), as the compiler reads it, with the encoding of the pictures it will
/// be applied to.
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
    exposureBias = clamped(state.exposureBias, to: ControlState.exposureBiasRange, otherwise: 0)
    zoom = clamped(state.zoom, to: ControlState.zoomRange, otherwise: 1)
    zoomCenter = ZoomCenter(
      x: clamped(state.zoomCenter.x, to: ControlState.zoomCenterRange, otherwise: 0.5),
      y: clamped(state.zoomCenter.y, to: ControlState.zoomCenterRange, otherwise: 0.5))
    contrast = clamped(state.contrast, to: ControlState.contrastRange, otherwise: 1)
    saturation = clamped(state.saturation, to: ControlState.saturationRange, otherwise: 1)
    filter = state.filter
    switch state.whiteBalance {
    case .kelvin(let kelvin):
      let range = ControlState.kelvinRange
      whiteBalance =
        kelvin.isFinite ? .kelvin(min(max(kelvin, range.lowerBound), range.upperBound)) : .none
    case .none, .auto, .preset:
      whiteBalance = state.whiteBalance
    }
    switch whiteBalance {
    case .kelvin, .preset:
      tint = clamped(state.tint, to: ControlState.tintRange, otherwise: 0)
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
