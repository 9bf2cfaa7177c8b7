import Foundation
import Synchronization

/// The pipeline's control set for one device: system exposure bias and zoom sliders, contrast,
/// saturation, a white-balance picker with temperature and tint sliders, a filter picker, a grid toggle.
///
/// Overlay order puts the common controls in the middle: grid, white balance, temperature, contrast,
/// exposure, zoom, saturation, tint, filter. The controls are the one source of truth: every change —
/// a user's slide or selection (through a session, `perform(_:)` or the control itself) or a value set from
/// code — publishes the resulting `ControlState` to `live` before the call returns, and every user change
/// is recorded when a recorder is set. `apply(_:)` pushes a whole state in and publishes it once. Each
/// control's `accessibilityIdentifier` is its name in its key's ``ControlDescriptor`` (the temperature
/// slider's is `temperature`).
public final class StandardControls: Sendable {
  /// White-balance picker options in order: as shot, auto, the presets, then kelvin (the temperature slider).
  public static let whiteBalanceTitles =
    ["As Shot", "Auto"] + WhiteBalancePreset.allCases.map { $0.rawValue.capitalized } + ["Kelvin"]
  /// The temperature the slider returns to when white balance is as shot or auto.
  public static let neutralKelvin = 5500.0

  struct Extras: Sendable {
    var zoomCenter = ZoomCenter.center
    var recorder: TimelineRecorder?
    var interaction: CaptureEventInteraction?
  }

  /// Publishing is held while several controls change as one (`apply(_:)`, a white-balance fix-up), and
  /// recording is left to `perform(_:)` on the thread performing.
  struct Publishing: Sendable {
    var holds = 0
    var performingThreads: Set<pthread_t> = []
  }

  /// The device the system sliders are bound to.
  public let device: CaptureDevice
  /// Where every change is published for the renderer.
  public let live: LiveControlState
  /// System exposure bias slider (EV).
  public let exposureBias: CaptureSlider
  /// System zoom slider (device zoom factor).
  public let zoom: CaptureSlider
  /// Contrast, 0 … 2.
  public let contrast: CaptureSlider
  /// Saturation, 0 … 2.
  public let saturation: CaptureSlider
  /// White balance: as shot, auto, presets, kelvin.
  public let whiteBalance: CaptureIndexPicker
  /// Colour temperature in kelvin; used when the white-balance picker is on "Kelvin".
  public let temperature: CaptureSlider
  /// Tint, −150 … +150.
  public let tint: CaptureSlider
  /// Filter picker, in `Filter.allCases` order.
  public let filter: CaptureIndexPicker
  /// Grid toggle (viewfinder only).
  public let grid: CaptureIndexPicker
  let extras = Mutex(Extras())
  let publishing = Mutex(Publishing())

  /// Creates the set for `device`, publishing every change to `live`.
  ///
  /// - Throws: `ControlError` when the device's zoom or exposure range cannot make a slider.
  public init(device: CaptureDevice, live: LiveControlState = LiveControlState())
    throws(ControlError)
  {
    self.device = device
    self.live = live
    exposureBias = try .systemExposureBias(device: device)
    zoom = try .systemZoom(device: device)
    contrast = try CaptureSlider(
      "Contrast", symbolName: "circle.lefthalf.filled", in: ControlState.contrastRange,
      defaultValue: 1)
    saturation = try CaptureSlider(
      "Saturation", symbolName: "drop.fill", in: ControlState.saturationRange, defaultValue: 1)
    whiteBalance = try CaptureIndexPicker(
      "White Balance", symbolName: "thermometer.sun", localizedIndexTitles: Self.whiteBalanceTitles)
    temperature = try CaptureSlider(
      "Temperature", symbolName: "thermometer.medium", in: ControlState.kelvinRange,
      defaultValue: Self.neutralKelvin)
    tint = try CaptureSlider(
      "Tint", symbolName: "paintpalette", in: ControlState.tintRange, defaultValue: 0)
    filter = try CaptureIndexPicker(
      "Filter", symbolName: "camera.filters",
      localizedIndexTitles: Filter.allCases.map(\.rawValue.capitalized))
    grid = CaptureIndexPicker.toggle("Grid", symbolName: "grid")

    try contrast.setProminentValues([1])
    try saturation.setProminentValues([1])
    try tint.setProminentValues([0])
    try temperature.setProminentValues(Array(Set(WhiteBalancePreset.allCases.map(\.kelvin))))
    contrast.localizedValueFormat = "×%.2f"
    saturation.localizedValueFormat = "×%.2f"
    temperature.localizedValueFormat = "%.0f K"
    // The HIG asks for a unit or symbol with every value: tint has no physical unit, so it names itself.
    tint.localizedValueFormat = "%+.0f tint"
    for (control, name) in identified { control.accessibilityIdentifier = name }
    for slider in [exposureBias, zoom, contrast, saturation, temperature, tint] {
      slider.observe { [weak self] _, origin in self?.controlChanged(slider, by: origin) }
    }
    for picker in [whiteBalance, filter, grid] {
      picker.observe { [weak self] _, origin in self?.controlChanged(picker, by: origin) }
    }
    live.set(state)
  }

  /// The controls in overlay order (common controls in the middle).
  public var all: [any CaptureControl] {
    [grid, whiteBalance, temperature, contrast, exposureBias, zoom, saturation, tint, filter]
  }

  /// Adds every control to `session` in one atomic configuration.
  ///
  /// - Throws: `SessionError` when the session cannot take them all (then none is added).
  public func install(in session: CaptureSession) throws {
    try session.configure { configuration in
      for control in all { try configuration.addControl(control) }
    }
  }

  /// The state the controls describe now.
  public var state: ControlState {
    let kelvinIndex = Self.whiteBalanceTitles.count - 1
    let index = whiteBalance.selectedIndex
    let balance: WhiteBalance =
      switch index {
      case 0: .none
      case 1: .auto
      case kelvinIndex: .kelvin(temperature.value)
      default: .preset(WhiteBalancePreset.allCases[index - 2])
      }
    return ControlState(
      exposureBias: exposureBias.value, zoom: zoom.value,
      zoomCenter: extras.withLock { $0.zoomCenter },
      contrast: contrast.value, saturation: saturation.value, whiteBalance: balance,
      tint: tint.value,
      filter: Filter.allCases[filter.selectedIndex], grid: grid.isOn)
  }

  /// Whether the grid toggle is on.
  public var isGridVisible: Bool { grid.isOn }

  /// Pushes `state` into the controls from code (no actions run) and publishes it to `live`.
  ///
  /// - Throws: `ControlError` when a value lies outside its slider's range (for example an exposure bias
  ///   beyond a webcam's −2 … +2 EV); then no control is changed.
  public func apply(_ state: ControlState) throws(ControlError) {
    let kelvin: Double
    let wbIndex: Int
    switch state.whiteBalance {
    case .none: (wbIndex, kelvin) = (0, Self.neutralKelvin)
    case .auto: (wbIndex, kelvin) = (1, Self.neutralKelvin)
    case .preset(let preset): (wbIndex, kelvin) = (Self.index(of: preset), preset.kelvin)
    case .kelvin(let value): (wbIndex, kelvin) = (Self.whiteBalanceTitles.count - 1, value)
    }
    let settings: [(CaptureSlider, Double)] = [
      (exposureBias, state.exposureBias), (zoom, state.zoom), (contrast, state.contrast),
      (saturation, state.saturation), (temperature, kelvin), (tint, state.tint),
    ]
    for (slider, value) in settings where !(value.isFinite && slider.values.range.contains(value)) {
      throw .valueOutOfRange(
        control: slider.title, value: value, allowed: slider.values.allowedDescription)
    }
    try Self.check(state.zoomCenter)
    try publishingOnce { () throws(ControlError) in
      for (slider, value) in settings { try slider.setValue(value) }
      try whiteBalance.setSelectedIndex(wbIndex)
      try filter.setSelectedIndex(Filter.allCases.firstIndex(of: state.filter) ?? 0)
      try grid.setSelectedIndex(state.grid ? 1 : 0)
      extras.withLock { $0.zoomCenter = state.zoomCenter }
    }
  }

  /// Records every later user action — through `perform(_:)`, a session or the controls themselves —
  /// with the value it landed on; `nil` stops recording.
  public func setRecorder(_ recorder: TimelineRecorder?) {
    extras.withLock { $0.recorder = recorder }
  }

  /// Sends presses performed through `perform(_:)` to `interaction`; `nil` drops them.
  public func setCaptureEventInteraction(_ interaction: CaptureEventInteraction?) {
    extras.withLock { $0.interaction = interaction }
  }

  /// The control a timeline name refers to (`white-balance` slides move the temperature slider); nil for
  /// `zoom-center`, which no Camera Control moves (a timeline pans it; see ``perform(_:)``).
  public func control(for name: ControlKey) -> (any CaptureControl)? {
    switch name {
    case .zoomCenter: nil
    case .exposureBias: exposureBias
    case .zoom: zoom
    case .contrast: contrast
    case .saturation: saturation
    case .whiteBalance: whiteBalance
    case .tint: tint
    case .filter: filter
    case .grid: grid
    }
  }

  /// The control named `name` or one of its aliases (a ``ControlDescriptor/Control`` name, as
  /// `--control` and the studio use: `exposure-bias`, `ev`, `temperature`), ignoring case.
  public func control(named name: String) -> (any CaptureControl)? {
    guard let named = ControlKey.control(named: name) else { return nil }
    return all.first { $0.accessibilityIdentifier == named.name }
  }

  private var identified: [(any CaptureControl, String)] {
    ControlKey.allCases.compactMap { name in control(for: name).map { ($0, name.rawValue) } }
      + [
        (temperature, "temperature")
      ]
  }

  private static func index(of preset: WhiteBalancePreset) -> Int {
    (WhiteBalancePreset.allCases.firstIndex(of: preset) ?? 0) + 2
  }

  /// After any change: a user's change keeps the white-balance picker and the temperature slider
  /// consistent and is recorded (unless `perform(_:)` records it); then the state is published.
  func controlChanged(_ control: any CaptureControl, by origin: ChangeOrigin) {
    guard origin == .user else {
      publish()
      return
    }
    publishingOnce {
      let kelvinIndex = Self.whiteBalanceTitles.count - 1
      if control === temperature {
        try? whiteBalance.setSelectedIndex(kelvinIndex)
      } else if control === whiteBalance {
        switch whiteBalance.selectedIndex {
        case 0, 1: try? temperature.setValue(Self.neutralKelvin)
        case kelvinIndex: break
        case let index: try? temperature.setValue(WhiteBalancePreset.allCases[index - 2].kelvin)
        }
      }
    }
    let thread = pthread_self()
    let performing = publishing.withLock { $0.performingThreads.contains(thread) }
    if !performing, let action = gesture(for: control) { recorder?.record(action) }
  }

  /// Runs `body` with publishing held, then publishes the state once.
  func publishingOnce<Failure: Error>(_ body: () throws(Failure) -> Void) throws(Failure) {
    publishing.withLock { $0.holds += 1 }
    defer {
      publishing.withLock { $0.holds -= 1 }
      publish()
    }
    try body()
  }

  /// Publishes the state unless a change of several controls is under way (it publishes at its end).
  private func publish() {
    publishing.withLock { publishing in
      if publishing.holds == 0 { live.set(state) }
    }
  }

  /// The timeline action a user's change of `control` amounts to, with the value it landed on.
  private func gesture(for control: any CaptureControl) -> TimelineAction? {
    if control === temperature { return .slide(.whiteBalance, value: temperature.value) }
    if control === whiteBalance { return .select(.whiteBalance, option: state.whiteBalance.text) }
    if control === filter { return .select(.filter, option: state.filter.rawValue) }
    if control === grid {
      return .select(.grid, option: ControlKey.gridOptions[grid.selectedIndex])
    }
    guard let name = ControlKey.allCases.first(where: { self.control(for: $0) === control }),
      let slider = control as? CaptureSlider
    else { return nil }
    return .slide(name, value: slider.value)
  }
}

extension StandardControls {
  /// The recorder set with `setRecorder(_:)`.
  var recorder: TimelineRecorder? { extras.withLock { $0.recorder } }

  /// The interaction set with `setCaptureEventInteraction(_:)`.
  var captureEventInteraction: CaptureEventInteraction? { extras.withLock { $0.interaction } }

  /// Throws unless both coordinates of `center` are finite and in `ControlState.zoomCenterRange`.
  static func check(_ center: ZoomCenter) throws(ControlError) {
    for value in [center.x, center.y]
    where !(value.isFinite && ControlState.zoomCenterRange.contains(value)) {
      throw .valueOutOfRange(
        control: "Zoom Center", value: value, allowed: ControlKey.zoomCenter.allowedValues)
    }
  }
}
