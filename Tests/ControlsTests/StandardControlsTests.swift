import Dispatch
import Foundation
import Testing

@testable import Controls

@Suite struct StandardControlsTests {
  @Test func orderPutsCommonControlsInTheMiddleAndInstallsAtomically() throws {
    let camera = try device("iphone-16-pro")
    let standard = try StandardControls(
      device: camera, actionQueue: DispatchQueue(label: "actions"))
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

  @Test func stateRoundTripsThroughTheControlsSilently() throws {
    let queue = DispatchQueue(label: "actions")
    let camera = try device("iphone-16-pro")
    let live = LiveControlState()
    let standard = try StandardControls(device: camera, live: live, actionQueue: queue)
    #expect(standard.state == .identity)
    let target = ControlState(
      exposureBias: -1, zoom: 4, zoomCenter: ZoomCenter(x: 0.2, y: 0.3), contrast: 1.3,
      saturation: 0.5,
      whiteBalance: .kelvin(4200), tint: 25, filter: .sepia)
    try standard.apply(target)
    #expect(standard.state == target)
    #expect(live.snapshot().state == target)
    #expect(camera.videoZoomFactor == 4 && camera.exposureTargetBias == -1)
    try standard.apply(ControlState(whiteBalance: .preset(.tungsten)))
    #expect(standard.state.whiteBalance == .preset(.tungsten) && standard.temperature.value == 2850)
    let before = standard.state
    let error = caught(ControlError.self) { try standard.apply(ControlState(exposureBias: 3)) }
    #expect(
      error?.description.contains("Exposure") == true
        && error?.description.contains("-2 … 2") == true)
    #expect(standard.state == before)
  }

  @Test func userActionsPublishStateAndKeepWhiteBalanceConsistent() throws {
    let queue = DispatchQueue(label: "actions")
    let live = LiveControlState()
    let standard = try StandardControls(device: device("iphone-16"), live: live, actionQueue: queue)
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
    queue.sync {}
    let state = live.snapshot().state
    #expect(state.contrast == 1.5 && state.whiteBalance == .kelvin(4500) && state.filter == .noir)
    #expect(standard.isGridVisible)
    #expect(throws: TimelineError.self) { try standard.perform(.slide(.filter, value: 1)) }
  }

  @Test func sessionSlidesReachTheLiveStateThroughActions() async throws {
    let queue = DispatchQueue(label: "actions")
    let live = LiveControlState()
    let standard = try StandardControls(
      device: device("iphone-16-pro"), live: live, actionQueue: queue)
    let session = CaptureSession(device: standard.device)
    try standard.install(in: session)
    session.startRunning()
    try session.userSlide(standard.saturation, to: 1.4)
    try session.userSelect(standard.filter, index: 1)
    queue.sync {}
    #expect(live.snapshot().state.saturation == 1.4 && live.snapshot().state.filter == .mono)
  }
}
