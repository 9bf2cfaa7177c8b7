import Foundation

/// The published figures of a capture device that the Camera Control model needs.
///
/// Zoom factors are device zoom factors (1 is the widest camera's full field of view); labels in the
/// overlay show `factor × displayVideoZoomFactorMultiplier`. Exposure bias is in EV.
public struct CaptureDeviceModel: Sendable, Hashable, Identifiable {
  /// The identifier used on the command line (`--device iphone-16-pro`).
  public let id: String
  /// A human-readable name.
  public let name: String
  /// Whether the device has a Camera Control.
  public let supportsControls: Bool
  /// How many controls a session on this device accepts (0 without a Camera Control).
  public let maxControlsCount: Int
  /// The recommended zoom range in device zoom factors, from 1.
  public let zoomRange: ClosedRange<Double>
  /// The factor from device zoom factors to the factors people see ("0.5×" for a device factor of 1).
  public let displayVideoZoomFactorMultiplier: Double
  /// The device zoom factors at which the virtual device switches to the next lens.
  public let switchOverZoomFactors: [Double]
  /// The range of exposure bias the device accepts, in EV: the system exposure bias slider's range.
  public let exposureBiasRange: ClosedRange<Double>
  /// Where the figures come from.
  public let source: String

  /// Creates a model, checking that its figures are consistent.
  ///
  /// - Throws: `ControlError` if the zoom range does not start at 1 or more, the multiplier is not above 0,
  ///   a switch-over factor lies outside the zoom range, or the exposure range is empty, not finite or
  ///   does not contain 0.
  public init(
    id: String, name: String, supportsControls: Bool, maxControlsCount: Int,
    zoomRange: ClosedRange<Double>,
    displayVideoZoomFactorMultiplier: Double, switchOverZoomFactors: [Double],
    exposureBiasRange: ClosedRange<Double>, source: String
  ) throws(ControlError) {
    guard zoomRange.lowerBound >= 1, zoomRange.upperBound.isFinite else {
      throw .invalidRange(
        control: "\(id) zoom", lowerBound: zoomRange.lowerBound, upperBound: zoomRange.upperBound)
    }
    guard displayVideoZoomFactorMultiplier > 0, displayVideoZoomFactorMultiplier.isFinite else {
      throw .valueOutOfRange(
        control: "\(id) display zoom multiplier", value: displayVideoZoomFactorMultiplier,
        allowed: "a finite number above 0")
    }
    for factor in switchOverZoomFactors where !zoomRange.contains(factor) {
      throw .valueOutOfRange(
        control: "\(id) switch-over zoom factor", value: factor,
        allowed:
          "\(NumberText.plain(zoomRange.lowerBound)) … \(NumberText.plain(zoomRange.upperBound))")
    }
    guard exposureBiasRange.lowerBound.isFinite, exposureBiasRange.upperBound.isFinite,
      exposureBiasRange.lowerBound < exposureBiasRange.upperBound, exposureBiasRange.contains(0)
    else {
      throw .invalidRange(
        control: "\(id) exposure bias", lowerBound: exposureBiasRange.lowerBound,
        upperBound: exposureBiasRange.upperBound)
    }
    self.init(
      unchecked: id, name: name, supportsControls: supportsControls,
      maxControlsCount: maxControlsCount, zoomRange: zoomRange,
      displayVideoZoomFactorMultiplier: displayVideoZoomFactorMultiplier,
      switchOverZoomFactors: switchOverZoomFactors, exposureBiasRange: exposureBiasRange,
      source: source)
  }

  /// Creates a model without checking its figures: for the catalog's constants, whose figures the
  /// tests check through the checking initializer.
  init(
    unchecked id: String, name: String, supportsControls: Bool, maxControlsCount: Int,
    zoomRange: ClosedRange<Double>, displayVideoZoomFactorMultiplier: Double,
    switchOverZoomFactors: [Double], exposureBiasRange: ClosedRange<Double>, source: String
  ) {
    self.id = id
    self.name = name
    self.supportsControls = supportsControls
    self.maxControlsCount = supportsControls ? max(maxControlsCount, 0) : 0
    self.zoomRange = zoomRange
    self.displayVideoZoomFactorMultiplier = displayVideoZoomFactorMultiplier
    self.switchOverZoomFactors = switchOverZoomFactors.sorted()
    self.exposureBiasRange = exposureBiasRange
    self.source = source
  }

  /// The same capture figures under another identifier and name (an iPhone 16 Pro Max has the iPhone 16
  /// Pro's cameras).
  public func named(id: String, name: String) -> CaptureDeviceModel {
    CaptureDeviceModel(
      unchecked: id, name: name, supportsControls: supportsControls,
      maxControlsCount: maxControlsCount, zoomRange: zoomRange,
      displayVideoZoomFactorMultiplier: displayVideoZoomFactorMultiplier,
      switchOverZoomFactors: switchOverZoomFactors, exposureBiasRange: exposureBiasRange,
      source: source)
  }

  /// The overlay label for a device zoom factor: `factor × multiplier` with at most one decimal and a
  /// "×" sign ("0.5×", "1×", "5×", "1.3×").
  public func zoomLabel(forFactor factor: Double) -> String {
    let shown = (factor * displayVideoZoomFactorMultiplier * 10).rounded() / 10
    return NumberText.plain(shown, maxFractionDigits: 1) + "×"
  }
}
