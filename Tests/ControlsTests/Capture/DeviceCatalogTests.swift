import Foundation
import Testing

@testable import Controls

@Suite struct DeviceCatalogTests {
  @Test func catalogListsFiveDevicesByCLIIdentifier() throws {
    #expect(
      CaptureDeviceModel.identifiers == [
        "iphone-16-pro", "iphone-16", "iphone-15-pro-max", "iphone-15-pro", "webcam",
      ])
    #expect(try CaptureDeviceModel.named("iPhone-16-Pro").supportsControls)
    #expect(try !CaptureDeviceModel.named("iphone-15-pro").supportsControls)
    #expect(try CaptureDeviceModel.named("webcam").maxControlsCount == 0)
    let error = caught(CatalogError.self) { _ = try CaptureDeviceModel.named("pixel") }
    #expect(
      error?.description.contains("pixel") == true
        && error?.description.contains("iphone-16") == true)
  }

  @Test func everyCatalogConstantPassesTheChecks() throws {
    #expect(CaptureDeviceModel.catalog.map(\.id) == CaptureDeviceModel.identifiers)
    #expect(CaptureDeviceModel.iPhone16Pro.id == "iphone-16-pro")
    for model in CaptureDeviceModel.catalog {
      let checked = try CaptureDeviceModel(
        id: model.id, name: model.name, supportsControls: model.supportsControls,
        maxControlsCount: model.maxControlsCount, zoomRange: model.zoomRange,
        displayVideoZoomFactorMultiplier: model.displayVideoZoomFactorMultiplier,
        switchOverZoomFactors: model.switchOverZoomFactors,
        exposureBiasRange: model.exposureBiasRange, source: model.source)
      #expect(checked == model)
    }
  }

  @Test func theIPhone15ProMaxHasItsFiveTimesTelephoto() throws {
    let proMax = try CaptureDeviceModel.named("iphone-15-pro-max")
    let pro = try CaptureDeviceModel.named("iphone-15-pro")
    #expect(proMax.switchOverZoomFactors.map(proMax.zoomLabel(forFactor:)) == ["1×", "5×"])
    #expect(proMax.zoomLabel(forFactor: proMax.zoomRange.upperBound) == "25×")
    #expect(pro.switchOverZoomFactors.map(pro.zoomLabel(forFactor:)) == ["1×", "3×"])
    #expect(pro.zoomLabel(forFactor: pro.zoomRange.upperBound) == "15×")
  }

  @Test func theLookupKnowsThePhonesThatShareACatalogDevicesCameras() throws {
    let proMax = try CaptureDeviceModel.named("iphone-16-pro-max")
    #expect(proMax.name == "iPhone 16 Pro Max" && proMax.supportsControls)
    #expect(proMax.zoomRange == CaptureDeviceModel.iPhone16Pro.zoomRange)
    #expect(try CaptureDeviceModel.named("iPhone 16 Plus").id == "iphone-16-plus")
    #expect(try CaptureDeviceModel.named("USB webcam").id == "webcam")
    let error = caught(CatalogError.self) { _ = try CaptureDeviceModel.named("iphone-16-pro-mx") }
    #expect(
      error?.description.hasPrefix(
        "unknown device 'iphone-16-pro-mx'; did you mean 'iphone-16-pro-max'?") == true)
  }

  @Test func zoomLabelsUseTheDisplayMultiplier() throws {
    let pro = try CaptureDeviceModel.named("iphone-16-pro")
    #expect(pro.zoomLabel(forFactor: 1) == "0.5×")
    #expect(pro.zoomLabel(forFactor: 2) == "1×")
    #expect(pro.zoomLabel(forFactor: 10) == "5×")
    #expect(pro.zoomLabel(forFactor: 2.5) == "1.3×")
    #expect(try CaptureDeviceModel.named("webcam").zoomLabel(forFactor: 2) == "2×")
  }

  @Test func systemZoomSliderRangeProminentValuesAndWriteBack() throws {
    let camera = try device("iphone-16-pro")
    let zoom = try CaptureSlider.systemZoom(device: camera)
    #expect(zoom.kind == .systemZoom && !zoom.requiresAction)
    // The values are the factors the phone shows: the picture is the 1× view, the device's factor
    // is the value ÷ 0.5 (its factor 1 is the 0.5× Ultra Wide, outside what a picture can show).
    #expect(zoom.values.range == 1...16)
    #expect(zoom.prominentValues == [1, 5])
    #expect(zoom.formattedValue(1) == "1×" && zoom.formattedValue(5) == "5×")
    #expect(camera.videoZoomFactor == 2 && zoom.value == 1)
    try zoom.setValue(4)
    #expect(camera.videoZoomFactor == 8)
    #expect(try zoom.userSlide(to: 4.9) == 5)
    #expect(camera.videoZoomFactor == 10)
    #expect(throws: ControlError.self) { try zoom.setValue(0.9) }
    let dual = try CaptureSlider.systemZoom(device: device("iphone-16"))
    #expect(dual.prominentValues == [1] && dual.values.range == 1...10)
    #expect(try CaptureSlider.systemZoom(device: device("webcam")).values.range == 1...4)
  }

  @Test func systemExposureSliderHasTheStateRangeUnlessTheDeviceLimitsIt() throws {
    // One range for the control: an iPhone's −8 … +8 EV is the state's; a webcam's is narrower.
    let camera = try device("iphone-16")
    let exposure = try CaptureSlider.systemExposureBias(device: camera)
    #expect(exposure.values.range == ControlState.exposureBiasRange && exposure.value == 0)
    #expect(exposure.formattedValue(0.33) == "+0.3 EV" && exposure.formattedValue(0) == "0.0 EV")
    try exposure.setValue(-1.5)
    #expect(camera.exposureTargetBias == -1.5)
    #expect(try exposure.userSlide(to: 3) == 3)
    #expect(throws: ControlError.self) { try exposure.setValue(9) }
    #expect(throws: ControlError.self) { try camera.setExposureTargetBias(9) }
    let webcam = try CaptureSlider.systemExposureBias(device: device("webcam"))
    #expect(webcam.values.range == -2...2)
    #expect(try webcam.userSlide(to: 3) == 2)
  }
}
