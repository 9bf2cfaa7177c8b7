import Foundation

extension CaptureSlider {
  /// The system zoom slider bound to `device` (Apple's `AVCaptureSystemZoomSlider`).
  ///
  /// Its range is 1 … the device's recommended maximum, capped at `ControlState.zoomRange`'s maximum
  /// (16) because its value feeds `ControlState.zoom`. Labels show the displayed factor ("0.5×", "1×",
  /// "5×"); prominent values are the minimum and each lens switch-over factor. Setting the value (from
  /// code or by a user) writes it to the device; an action is optional and only informs.
  ///
  /// - Throws: `ControlError` if the device's zoom range does not reach above 1.
  public static func systemZoom(device: CaptureDevice) throws(ControlError) -> CaptureSlider {
    let model = device.model
    let upper = min(model.zoomRange.upperBound, ControlState.zoomRange.upperBound)
    guard upper > model.zoomRange.lowerBound else {
      throw .invalidRange(
        control: "Zoom", lowerBound: model.zoomRange.lowerBound, upperBound: upper)
    }
    let range = model.zoomRange.lowerBound...upper
    let current = min(max(device.videoZoomFactor, range.lowerBound), range.upperBound)
    let slider = try CaptureSlider(
      "Zoom", symbolName: "plus.magnifyingglass", values: .continuous(range), kind: .systemZoom,
      initialValue: current, presentation: { model.zoomLabel(forFactor: $0) },
      writeBack: { try? device.setVideoZoomFactor($0) })
    try slider.setProminentValues(
      [range.lowerBound] + model.switchOverZoomFactors.filter(range.contains))
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
