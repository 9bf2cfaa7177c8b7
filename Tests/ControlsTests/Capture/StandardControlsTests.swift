import Dispatch
import Foundation
import Testing

@testable import Controls

@Suite struct StandardControlsTests {
  @Test func orderPutsCommonControlsInTheMiddleAndInstallsAtomically() throws {
    let camera = try device("iphone-16-pro")
    let standard = try StandardControls(device: camera)
    #expect(
      standard.all.map(\.title) == [
        "Grid", "White Balance", "Temperature", "Contrast", "Exposure", "Zoom", "Saturation",
        "Tint", "Filter",
      ])
    let session = CaptureSession(device: camera)
    try standard.install(in: session)
    #expect(session.controls.count == 9)
    #expect(throws: SessionError.self) {
      try standard.install(in: CaptureSession(device: try device("webcam")))
    }
    #expect(standard.all.compactMap(\.accessibilityIdentifier).contains("exposure-bias"))
  }

  @Test func everyControlIsMadeFromItsDescriptorAndPlacedByItsOverlayPosition() throws {
    let standard = try StandardControls(device: device("iphone-16-pro"))
    let described = ControlKey.controls
    #expect(
      standard.all.map(\.accessibilityIdentifier)
        == described.sorted { $0.overlayPosition < $1.overlayPosition }.map(\.name))
    for control in described {
      let made = try #require(standard.control(named: control.name))
      switch control.appearance {
      case .slider(let title, let symbolName, let valueFormat):
        let slider = try #require(made as? CaptureSlider)
        let range = try #require(control.key.descriptor.range)
        #expect(slider.title == title && slider.symbolName == symbolName)
        #expect(slider.values == .continuous(range) && slider.localizedValueFormat == valueFormat)
        #expect(slider.kind == .custom)
      case .picker(let title, let symbolName):
        let picker = try #require(made as? CaptureIndexPicker)
        #expect(picker.title == title && picker.symbolName == symbolName)
      case .systemExposureBiasSlider:
        #expect((made as? CaptureSlider)?.kind == .systemExposureBias)
      case .systemZoomSlider:
        #expect((made as? CaptureSlider)?.kind == .systemZoom)
      }
    }
    // A number's slider starts at the identity, which is prominent.
    for key in ControlKey.allCases {
      guard case .number(_, _, let value) = key.descriptor.kind,
        let slider = standard.control(for: key) as? CaptureSlider, slider.kind == .custom
      else { continue }
      #expect(slider.value == ControlState.identity[keyPath: value])
      #expect(slider.prominentValues == [ControlState.identity[keyPath: value]])
    }
    #expect(standard.temperature.value == StandardControls.neutralKelvin)
    #expect(standard.temperature.prominentValues == [2850, 3800, 5500, 6500, 7500])
  }

  @Test func everyNumberKeysSliderCarriesItsValueBothWaysAndRecordsItsSlides() throws {
    let recorder = TimelineRecorder(clock: VirtualClock())
    let standard = try StandardControls(device: device("iphone-16-pro"))
    standard.setRecorder(recorder)
    var slid: [TimelineAction] = []
    for key in ControlKey.allCases {
      guard case .number(_, _, let value) = key.descriptor.kind else { continue }
      let slider = try #require(standard.control(for: key) as? CaptureSlider, "\(key)")
      let moved = ControlDescriptorTests.moved(key)
      try standard.apply(moved)
      #expect(standard.state == moved && slider.value == moved[keyPath: value])
      try standard.apply(.identity)
      #expect(standard.state == .identity)
      try slider.userSlide(to: moved[keyPath: value])
      slid.append(.slide(key, value: slider.value))
      #expect(standard.state[keyPath: value] == slider.value)
    }
    try standard.grid.userSelect(1)
    #expect(try recorder.timeline().events.map(\.action) == slid + [.select(.grid, option: "on")])
  }

  @Test func everyToggleKeysPickerCarriesItsValueBothWaysAndTakesTheWordsOfSet() throws {
    let recorder = TimelineRecorder(clock: VirtualClock())
    let standard = try StandardControls(device: device("iphone-16-pro"))
    standard.setRecorder(recorder)
    var selected: [TimelineAction] = []
    for key in ControlKey.allCases {
      guard case .toggle(let value) = key.descriptor.kind else { continue }
      let picker = try #require(standard.control(for: key) as? CaptureIndexPicker, "\(key)")
      try standard.apply(ControlDescriptorTests.moved(key))
      #expect(picker.isOn && standard.state == ControlDescriptorTests.moved(key))
      try standard.apply(.identity)
      #expect(!picker.isOn && standard.state == .identity)
      try standard.perform(.select(key, option: " TRUE"))
      #expect(picker.isOn && standard.state[keyPath: value])
      try standard.perform(.select(key, option: "Off"))
      #expect(!picker.isOn && !standard.state[keyPath: value])
      selected += [.select(key, option: "on"), .select(key, option: "off")]
      let error = caught(ControlStateError.self) {
        try standard.perform(.select(key, option: "maybe"))
      }
      #expect(
        error == .invalidValue(key: key.cliName, value: "maybe", allowed: key.allowedValues))
    }
    #expect(!selected.isEmpty)
    #expect(try recorder.timeline().events.map(\.action) == selected)
  }

  @Test func aKeyWithoutARangeMakesNoSliderAndAKeyOfNumbersNoPicker() {
    let slider = caught(ControlError.self) {
      _ = try StandardControls.slider(
        for: .filter, title: "Filter", symbolName: "f", valueFormat: "%f")
    }
    #expect(slider == .invalidRange(control: "Filter", lowerBound: 0, upperBound: 0))
    let picker = caught(ControlError.self) {
      _ = try StandardControls.picker(for: .contrast, title: "Contrast", symbolName: "c")
    }
    #expect(picker == .noIndexes(control: "Contrast"))
  }

  @Test func everySliderValueCarriesAUnitOrSymbol() throws {
    // HIG, Camera Control: include units or symbols with slider values (EV, %, a custom string).
    let standard = try StandardControls(device: device("iphone-16-pro"))
    for slider in standard.all.compactMap({ $0 as? CaptureSlider }) {
      let label = slider.formattedValue()
      let unit = label.filter { !$0.isNumber && !"+-−., ".contains($0) }
      #expect(!unit.isEmpty, "\(slider.title) shows \(label)")
    }
    #expect(standard.tint.formattedValue(0) == "+0 tint")
  }

  @Test func stateRoundTripsThroughTheControlsSilently() throws {
    let camera = try device("iphone-16-pro")
    let live = LiveControlState()
    let standard = try StandardControls(device: camera, live: live)
    #expect(standard.state == .identity)
    let target = ControlState(
      exposureBias: -1, zoom: 4, zoomCenter: ZoomCenter(x: 0.2, y: 0.3), contrast: 1.3,
      saturation: 0.5,
      whiteBalance: .kelvin(4200), tint: 25, filter: .sepia)
    try standard.apply(target)
    #expect(standard.state == target)
    #expect(live.snapshot().state == target)
    #expect(camera.videoZoomFactor == 8 && camera.exposureTargetBias == -1)
    try standard.apply(ControlState(whiteBalance: .preset(.tungsten)))
    #expect(standard.state.whiteBalance == .preset(.tungsten) && standard.temperature.value == 2850)
    // Every state the vocabulary allows fits an iPhone's controls, the grid included.
    let extreme = ControlState(exposureBias: 8, zoom: 16, grid: true)
    try standard.apply(extreme)
    #expect(standard.state == extreme && standard.isGridVisible)
    // A webcam's exposure slider stops at ±2 EV: a state beyond it is refused whole, naming the limit.
    let webcam = try StandardControls(device: device("webcam"))
    let before = webcam.state
    let error = caught(ControlError.self) { try webcam.apply(ControlState(exposureBias: 3)) }
    #expect(
      error?.description.contains("Exposure") == true
        && error?.description.contains("-2 … 2") == true)
    #expect(webcam.state == before)
  }

  @Test func userActionsPublishStateAndKeepWhiteBalanceConsistent() throws {
    let live = LiveControlState()
    let standard = try StandardControls(device: device("iphone-16"), live: live)
    try standard.perform(.slide(.contrast, value: 1.01))
    #expect(live.snapshot().state.contrast == 1)
    try standard.perform(.slide(.contrast, value: 1.5))
    try standard.perform(.select(.whiteBalance, option: "cloudy"))
    #expect(standard.temperature.value == 6500)
    try standard.perform(.slide(.whiteBalance, value: 3700))
    #expect(
      standard.state.whiteBalance == .kelvin(3800), "lands on the fluorescent preset's temperature")
    try standard.perform(.slide(.whiteBalance, value: 4500))
    #expect(standard.state.whiteBalance == .kelvin(4500))
    try standard.perform(.select(.filter, option: "noir"))
    try standard.perform(.select(.grid, option: "on"))
    let state = live.snapshot().state
    #expect(state.contrast == 1.5 && state.whiteBalance == .kelvin(4500) && state.filter == .noir)
    #expect(standard.isGridVisible)
    #expect(throws: TimelineError.self) { try standard.perform(.slide(.filter, value: 1)) }
  }

  @Test func everyChangeReachesTheLiveStateBeforeTheCallReturns() throws {
    let live = LiveControlState()
    let standard = try StandardControls(device: device("iphone-16-pro"), live: live)
    let session = CaptureSession(device: standard.device)
    try standard.install(in: session)
    session.startRunning()
    // No waiting: a user's change through the session is published when the call returns.
    try session.userSlide(standard.saturation, to: 1.4)
    #expect(live.snapshot().state.saturation == 1.4)
    try session.userSelect(standard.filter, index: 1)
    #expect(live.snapshot().state.filter == .mono)
    // A value set from code on a control reaches the renderer too.
    let generation = live.snapshot().generation
    try standard.contrast.setValue(1.7)
    #expect(live.snapshot().state.contrast == 1.7 && live.snapshot().generation > generation)
    // A user's temperature slide on the control itself switches the picker to Kelvin in one publication.
    let before = live.snapshot().generation
    try standard.temperature.userSlide(to: 4500)
    #expect(live.snapshot().state.whiteBalance == .kelvin(4500))
    #expect(live.snapshot().generation == before + 1)
    // apply publishes a whole state once.
    try standard.apply(ControlState(exposureBias: 1, contrast: 0.5, filter: .noir))
    #expect(live.snapshot().state == ControlState(exposureBias: 1, contrast: 0.5, filter: .noir))
    #expect(live.snapshot().generation == before + 2)
  }

  @Test func concurrentChangesAreNeverLostFromTheLiveState() async throws {
    // Four threads move four controls at once; whatever the interleaving, the last publication holds
    // every control's final value.
    let live = LiveControlState()
    let standard = try StandardControls(device: device("iphone-16-pro"), live: live)
    let sliders = [standard.contrast, standard.saturation, standard.tint, standard.temperature]
    await withTaskGroup(of: Void.self) { group in
      for slider in sliders {
        group.addTask {
          let range = slider.values.range
          for step in 0...200 {
            let value =
              range.lowerBound + (range.upperBound - range.lowerBound) * Double(step) / 200
            _ = try? slider.userSlide(to: value)
          }
        }
      }
    }
    #expect(live.snapshot().state == standard.state)
    #expect(standard.state.contrast == 2 && standard.state.saturation == 2)
    #expect(standard.state.tint == 150 && standard.state.whiteBalance == .kelvin(25000))
  }

  @Test func gesturesThroughTheSessionAndTheControlsAreRecorded() throws {
    let clock = VirtualClock()
    let recorder = TimelineRecorder(clock: clock)
    let standard = try StandardControls(device: device("iphone-16-pro"))
    standard.setRecorder(recorder)
    let session = CaptureSession(device: standard.device)
    try standard.install(in: session)
    session.startRunning()
    try session.userSlide(standard.exposureBias, to: 0.68)
    clock.advance(to: 0.1)
    try session.userSelect(standard.whiteBalance, index: 2 + 3)
    clock.advance(to: 0.2)
    try standard.temperature.userSlide(to: 4480)
    clock.advance(to: 0.3)
    try standard.perform(.select(.filter, option: "noir"))
    try standard.tint.setValue(20)  // from code: not a gesture
    let events = try recorder.timeline().events
    #expect(events.map(\.time) == [0, 0.1, 0.2, 0.3])
    #expect(
      events.map(\.action) == [
        .slide(.exposureBias, value: standard.exposureBias.value),
        .select(.whiteBalance, option: WhiteBalancePreset.allCases[3].rawValue),
        .slide(.whiteBalance, value: standard.temperature.value),
        .select(.filter, option: "noir"),
      ])
    // Replayed into fresh controls, the recording gives the same state, tint aside.
    let other = try StandardControls(device: device("iphone-16-pro"))
    for event in events { try other.perform(event.action) }
    var expected = standard.state
    expected.tint = 0
    #expect(other.state == expected)
  }
}
