import Foundation
import Synchronization

/// A running capture device: a catalog model plus the zoom factor and exposure bias it currently uses.
///
/// The system zoom and exposure bias sliders write their values here.
public final class CaptureDevice: Sendable {
  private struct Settings: Sendable {
    var videoZoomFactor: Double
    var exposureTargetBias: Double
  }

  /// The device's published figures.
  public let model: CaptureDeviceModel
  private let settings: Mutex<Settings>

  /// Creates a device at the 1× camera, as the Camera app opens (zoom factor 1 ÷ the display
  /// multiplier: 2 on an iPhone whose factor 1 is the 0.5× Ultra Wide), and exposure bias 0.
  public init(model: CaptureDeviceModel) {
    self.model = model
    let bias = min(max(0, model.exposureBiasRange.lowerBound), model.exposureBiasRange.upperBound)
    let oneTimes = 1 / model.displayVideoZoomFactorMultiplier
    let zoom = min(max(oneTimes, model.zoomRange.lowerBound), model.zoomRange.upperBound)
    settings = Mutex(Settings(videoZoomFactor: zoom, exposureTargetBias: bias))
  }

  /// The current device zoom factor.
  public var videoZoomFactor: Double { settings.withLock { $0.videoZoomFactor } }

  /// The current exposure bias in EV.
  public var exposureTargetBias: Double { settings.withLock { $0.exposureTargetBias } }

  /// Sets the zoom factor.
  ///
  /// - Throws: `ControlError.deviceValueOutOfRange` outside `model.zoomRange`.
  public func setVideoZoomFactor(_ factor: Double) throws(ControlError) {
    guard factor.isFinite, model.zoomRange.contains(factor) else {
      throw .deviceValueOutOfRange(
        device: model.id, property: "zoom factor", value: factor,
        allowed: Self.describe(model.zoomRange))
    }
    settings.withLock { $0.videoZoomFactor = factor }
  }

  /// Sets the exposure bias.
  ///
  /// - Throws: `ControlError.deviceValueOutOfRange` outside `model.exposureBiasRange`.
  public func setExposureTargetBias(_ bias: Double) throws(ControlError) {
    guard bias.isFinite, model.exposureBiasRange.contains(bias) else {
      throw .deviceValueOutOfRange(
        device: model.id, property: "exposure bias", value: bias,
        allowed: Self.describe(model.exposureBiasRange) + " EV")
    }
    settings.withLock { $0.exposureTargetBias = bias }
  }

  private static func describe(_ range: ClosedRange<Double>) -> String {
    "\(NumberText.plain(range.lowerBound)) … \(NumberText.plain(range.upperBound))"
  }
}
