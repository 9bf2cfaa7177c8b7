import Foundation
import Testing

@testable import Controls

@Suite struct ControlVocabularyTests {
  @Test func everyKeyHasOneDescriptorWithItsNames() {
    #expect(
      ControlKey.allCases.map(\.jsonKey) == [
        "exposureBias", "zoom", "zoomCenter", "contrast", "saturation", "whiteBalance", "tint",
        "filter", "grid",
      ])
    #expect(ControlKey.exposureBias.descriptor.aliases == ["ev"])
    #expect(ControlKey.whiteBalance.descriptor.jsonAliases == ["temperature"])
    #expect(ControlKey.tint.allowedValues == "-150 … 150")
    #expect(ControlKey.zoomCenter.allowedValues == "x,y with each coordinate 0 … 1")
    #expect(
      ControlKey.allCases.filter(\.acceptsSlide).map(\.cliName) == [
        "exposure-bias", "zoom", "zoom-center", "contrast", "saturation", "white-balance", "tint",
      ])
    #expect(ControlKey.allCases.filter(\.acceptsSelect) == [.whiteBalance, .filter, .grid])
  }

  @Test func theCameraControlsAreTheDescriptorsControlsInKeyOrder() {
    #expect(
      ControlKey.controls.map(\.name) == [
        "exposure-bias", "zoom", "contrast", "saturation", "white-balance", "temperature", "tint",
        "filter", "grid",
      ])
    #expect(ControlKey.control(named: "EV")?.key == .exposureBias)
    #expect(ControlKey.control(named: "wb")?.name == "white-balance")
    #expect(ControlKey.control(named: "temperature")?.key == .whiteBalance)
    #expect(ControlKey.control(named: "temperature")?.spacing == .mired)
    #expect(ControlKey.control(named: "zoom")?.spacing == .logarithmic)
    #expect(ControlKey.control(named: "zoom-center") == nil)
    #expect(ControlKey.control(named: "grid")?.isViewfinderOnly == true)
    #expect(ControlKey.control(named: "filter")?.isViewfinderOnly == false)
  }

  @Test func timelinesNameKeysOrTheTemperatureSlider() {
    #expect(ControlKey(timelineName: "temperature") == .whiteBalance)
    #expect(ControlKey(timelineName: "zoom-center") == .zoomCenter)
    #expect(ControlKey(timelineName: "ev") == nil)
    #expect(ControlKey(timelineName: "exposureBias") == nil)
  }

  @Test func everyStandardControlIsFoundByItsName() throws {
    let controls = try StandardControls(device: device("iphone-16-pro"))
    for control in ControlKey.controls {
      #expect(controls.control(named: control.name)?.accessibilityIdentifier == control.name)
    }
    #expect(controls.control(named: "temperature") === controls.temperature)
    #expect(controls.control(named: "WB") === controls.whiteBalance)
    #expect(controls.control(named: "zoom-center") == nil)
  }

  @Test func aStateReadsBackThroughEveryKeysTextForm() throws {
    let state = ControlState(
      exposureBias: -1.5, zoom: 3, zoomCenter: ZoomCenter(x: 0.2, y: 0.9), contrast: 0.7,
      saturation: 1.4, whiteBalance: .preset(.shade), tint: 33, filter: .noir, grid: true)
    var copy = ControlState.identity
    for key in ControlKey.allCases {
      copy = try copy.applying(key, text: state.text(for: key))
    }
    #expect(copy == state)
    #expect(state.text(for: .grid) == "on" && state.text(for: .zoomCenter) == "0.2,0.9")
  }
}
