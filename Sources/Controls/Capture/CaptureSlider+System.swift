import Foundation

extension CaptureSlider {
  /// The system zoom slider bound to `device` (Apple's `AVCaptureSystemZoomSlider`).
  ///
  /// Its values are the factors the phone shows ("1×", "2×", "5×"), which are `ControlState.zoom`'s:
  /// the picture being edited is the 1× view, and zoom 2 shows it enlarged twice as "2×". A picture can
  /// be cropped but not widened, so the range starts at 1× (a triple-camera iPhone's 0.5× Ultra Wide lies
  /// outside it) and ends at the device's digital maximum (the iPhone 16 Pro's 25×), capped at
  /// `ControlState.zoomRange`'s 16. The device's own zoom factor is the value ÷ its display multiplier
  /// (`displayVideoZoomFactorMultiplier`: factor 10 is the 16 Pro's 5× telephoto). Prominent values are
  /// 1× and each lens switch-over shown that way. Setting the value (from code or by a user) writes the
  /// device's factor; an action is optional and only informs.
  ///
  /// - Throws: `ControlError` if the device's zoom does not reach above 1×.
  public static func systemZoom(device: CaptureDevice) throws(ControlError) -> CaptureSlider {
    let model = device.model
    let multiplier = model.displayVideoZoomFactorMultiplier
    let lower = max(1, model.zoomRange.lowerBound * multiplier)
    let upper = min(model.zoomRange.upperBound * multiplier, ControlState.zoomRange.upperBound)
    guard upper > lower else {
      throw .invalidRange(control: "Zoom", lowerBound: lower, upperBound: upper)
    }
    let range = lower...upper
    let current = min(max(device.videoZoomFactor * multiplier, range.lowerBound), range.upperBound)
    let factors = model.zoomRange
    let slider = try CaptureSlider(
      "Zoom", symbolName: "plus.magnifyingglass", values: .continuous(range), kind: .systemZoom,
      initialValue: current, presentation: { model.zoomLabel(forFactor: $0 / multiplier) },
      writeBack: {
        try? device.setVideoZoomFactor(
          min(max($0 / multiplier, factors.lowerBound), factors.upperBound))
      })
    let lenses = model.switchOverZoomFactors.map { $0 * multiplier }
      .filter { range.contains($0) && $0 > range.lowerBound }
    try slider.setProminentValues([range.lowerBound] + lenses)
    return slider
  }

  /// The system exposure bias slider bound to `device` (Apple's `AVCaptureSystemExposureBiasSlider`).
  ///
  /// Its range is the device's exposure bias range in EV, capped at `ControlState.exposureBiasRange`
  /// (−8 … +8) because its value feeds `ControlState.exposureBias`: one range for the control everywhere,
  /// narrower only where the device's is. Labels read "+0.3 EV"; 0 is a prominent value. Setting the
  /// value writes it to the device's exposure bias.
  ///
  /// - Throws: `ControlError` if the range is empty.
  public static func systemExposureBias(device: CaptureDevice) throws(ControlError) -> CaptureSlider
  {
    let deviceRange = device.model.exposureBiasRange
    let state = ControlState.exposureBiasRange
    let lower = max(deviceRange.lowerBound, state.lowerBound)
    let upper = min(deviceRange.upperBound, state.upperBound)
    guard lower < upper else {
      throw .invalidRange(control: "Exposure", lowerBound: lower, upperBound: upper)
    }
    let range = lower...upper
    let current = min(max(device.exposureTargetBias, range.lowerBound), range.upperBound)
    let slider = try CaptureSlider(
      "Exposure", symbolName: "plusminus.circle", values: .continuous(range),
      kind: .systemExposureBias,
      initialValue: current, presentation: exposureLabel,
      writeBack: { try? device.setExposureTargetBias($0) })
    if range.contains(0) { try slider.setProminentValues([0]) }
    return slider
  }

  /// The exposure bias label: a signed value with one decimal and "EV" ("+0.3 EV", "0.0 EV", "-1.0 EV").
  static func exposureLabel(_ bias: Double) -> String {
    let rounded = (bias * 10).rounded() / 10
    return rounded == 0 ? "0.0 EV" : String(format: "%+.1f EV", rounded)
  }
}
