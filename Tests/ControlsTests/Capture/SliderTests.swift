import Dispatch
import Foundation
import Testing

@testable import Controls

@Suite struct SliderTests {
  @Test func invalidDescriptionsThrow() {
    #expect(throws: ControlError.self) { try CaptureSlider("A", symbolName: "a", in: 1...1) }
    #expect(throws: ControlError.self) {
      try CaptureSlider("A", symbolName: "a", in: 0...1, step: 0)
    }
    #expect(throws: ControlError.self) { try CaptureSlider("A", symbolName: "a", values: []) }
    #expect(throws: ControlError.self) {
      try CaptureSlider("A", symbolName: "a", in: 0...1, defaultValue: 2)
    }
  }

  @Test func defaultsToMinimumOrGivenDefault() throws {
    #expect(try CaptureSlider("A", symbolName: "a", in: 1.2...16).value == 1.2)
    #expect(try CaptureSlider("A", symbolName: "a", in: 1.2...16, defaultValue: 1.8).value == 1.8)
    let iso = try CaptureSlider(
      "ISO", symbolName: "i", values: [800, 50, 200, 100], defaultValue: 200)
    #expect(iso.values == .list([50, 100, 200, 800]))
    #expect(iso.values.range == 50...800)
  }

  @Test func settingOutOfRangeThrowsAndNamesControlValueAndRange() throws {
    let slider = try CaptureSlider("EV", symbolName: "sun.max", in: -2...2, step: 0.5)
    let error = caught(ControlError.self) { try slider.setValue(3) }
    #expect(error == .valueOutOfRange(control: "EV", value: 3, allowed: "-2 … 2 in steps of 0.5"))
    #expect(error?.description.contains("\"EV\"") == true)
    #expect(slider.value == -2)
    #expect(throws: ControlError.self) { try slider.setValue(.nan) }
  }

  @Test func setFromCodeIsStoredAsGivenWithoutAction() throws {
    let queue = DispatchQueue(label: "slider")
    let calls = Collected<Double>()
    let slider = try CaptureSlider("EV", symbolName: "sun.max", in: -2...2, step: 0.5)
    slider.setActionQueue(queue) { calls.append($0) }
    try slider.setValue(0.3)
    try slider.setValue(0.3)
    queue.sync {}
    #expect(slider.value == 0.3)
    #expect(calls.all.isEmpty)
  }

  @Test func userSlideLandsOnStepsAndRunsActionOnItsQueue() throws {
    let queue = DispatchQueue(label: "slider")
    let calls = Collected<Double>()
    let slider = try CaptureSlider("EV", symbolName: "sun.max", in: -2...2, step: 0.5)
    slider.setActionQueue(queue) { value in
      dispatchPrecondition(condition: .onQueue(queue))
      calls.append(value)
    }
    #expect(try slider.userSlide(to: 0.7) == 0.5)
    #expect(try slider.userSlide(to: 0.6) == 0.5)
    #expect(try slider.userSlide(to: 9) == 2)
    queue.sync {}
    #expect(calls.all == [0.5, 2])
    #expect(slider.value == 2)
  }

  @Test func userSlideLandsOnNearestListedValue() throws {
    let slider = try CaptureSlider(
      "ISO", symbolName: "i", values: [50, 100, 200, 400, 800, 1600, 3200])
    #expect(slider.landingValue(for: 260) == 200)
    #expect(slider.landingValue(for: 320) == 400)
    #expect(slider.landingValue(for: 150) == 100)
    #expect(slider.landingValue(for: 10_000) == 3200)
  }

  @Test func userSlideSnapsToProminentValuesWithinTwoPercentOfTheSpan() throws {
    let slider = try CaptureSlider("Aperture", symbolName: "a", in: 0...10)
    try slider.setProminentValues([5])
    #expect(slider.landingValue(for: 5.19) == 5)
    #expect(slider.landingValue(for: 4.81) == 5)
    #expect(slider.landingValue(for: 5.21) == 5.21)
    let stepped = try CaptureSlider("EV", symbolName: "e", in: -2...2, step: 0.33)
    try stepped.setProminentValues([-1, 0, 1])
    #expect(stepped.landingValue(for: 0.05) == 0)
    #expect(abs(stepped.landingValue(for: 0.4) - 0.31) < 1e-9)
  }

  @Test func prominentValuesMustBeInRangeAndListed() throws {
    let slider = try CaptureSlider("ISO", symbolName: "i", values: [100, 200, 400])
    #expect(throws: ControlError.self) { try slider.setProminentValues([150]) }
    #expect(throws: ControlError.self) { try slider.setProminentValues([800]) }
    try slider.setProminentValues([400, 100, 100])
    #expect(slider.prominentValues == [100, 400])
  }

  @Test func disabledSliderRefusesUserSlidesButKeepsItsValue() throws {
    let slider = try CaptureSlider("A", symbolName: "a", in: 0...1, defaultValue: 0.5)
    slider.isEnabled = false
    #expect(caught(ControlError.self) { try slider.userSlide(to: 0.9) } == .disabled(control: "A"))
    #expect(slider.value == 0.5)
    try slider.setValue(0.2)
    #expect(slider.value == 0.2)
  }

  @Test func valueFormats() throws {
    let slider = try CaptureSlider("A", symbolName: "a", in: 0...100, defaultValue: 40)
    #expect(slider.formattedValue() == "40")
    slider.localizedValueFormat = "%@%%"
    #expect(slider.formattedValue() == "40%")
    slider.localizedValueFormat = "ƒ%.1f"
    #expect(slider.formattedValue(1.8) == "ƒ1.8")
    slider.localizedValueFormat = "ISO %.0f"
    #expect(slider.formattedValue(200) == "ISO 200")
    slider.localizedValueFormat = "%+.1f EV"
    #expect(slider.formattedValue(0.5) == "+0.5 EV")
    for invalid in ["%d", "%@ %@", "%s", "no placeholder", "%.1f %.1f", "%", "%@ and %.1f", "%n"] {
      slider.localizedValueFormat = invalid
      #expect(slider.formattedValue(12.345) == "12.35", "format \(invalid)")
    }
  }
}
