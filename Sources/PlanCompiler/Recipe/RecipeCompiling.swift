import Controls

extension Recipe {
  /// The recipe of a control state for pictures in `encoding`: its non-identity stages in the contract's
  /// order, in the linear light of the encoding's transfer and primaries.
  ///
  /// Order: zoom; then, if any stage works in linear light, decode, exposure, white balance, saturation,
  /// the look's matrix and encode; then the look's curve and contrast on encoded values. Values outside the
  /// documented ranges are clamped and non-finite values read as the identity (validation with messages
  /// belongs to the command line and state-file readers). The identity state compiles to no stages.
  public init(compiling state: ControlState, encoding: ColourEncoding = .sRGB) {
    self.init(compiling: CompilableState(state, encoding: encoding))
  }

  init(compiling state: CompilableState) {
    let (transfer, primaries) = (state.encoding.transfer, state.encoding.primaries)
    var stages: [RecipeStage] = []
    if state.zoom != 1 {
      stages.append(.zoom(factor: state.zoom, center: state.zoomCenter))
    }
    let look = FilterLook(state.filter, luma: primaries.lumaWeights)
    var linear: [RecipeStage] = []
    if state.exposureBias != 0 {
      linear.append(.exposure(ev: state.exposureBias))
    }
    switch state.whiteBalance {
    case .none:
      break
    case .auto:
      linear.append(.autoWhiteBalance)
    case .preset(let preset):
      let gains = WhiteBalanceGains.gains(
        kelvin: preset.kelvin, tint: state.tint, primaries: primaries)
      linear.append(
        .gains(
          gains,
          name: "\(preset.rawValue) \(formatForDisplay(preset.kelvin)) K" + tintLabel(state.tint)))
    case .kelvin(let kelvin):
      let gains = WhiteBalanceGains.gains(
        kelvin: kelvin, tint: state.tint, primaries: primaries)
      linear.append(.gains(gains, name: "\(formatForDisplay(kelvin)) K" + tintLabel(state.tint)))
    }
    if state.saturation != 1 {
      linear.append(
        .matrix(
          SaturationMatrix.matrix(saturation: state.saturation, luma: primaries.lumaWeights),
          name: "saturation \(formatForDisplay(state.saturation))"))
    }
    if let matrix = look.matrix {
      linear.append(.matrix(matrix, name: "filter \(state.filter.rawValue)"))
    }
    if !linear.isEmpty {
      stages.append(.decode(transfer))
      stages.append(contentsOf: linear)
      stages.append(.encode(transfer))
    }
    if let curve = look.curve {
      stages.append(.curve(curve, name: "filter \(state.filter.rawValue)"))
    }
    if state.contrast != 1 {
      stages.append(.contrast(state.contrast, pivot: transfer.contrastPivot))
    }
    self.init(stages: stages)
  }
}

private func tintLabel(_ tint: Double) -> String {
  tint == 0 ? "" : ", tint \(tint > 0 ? "+" : "")\(formatForDisplay(tint))"
}
