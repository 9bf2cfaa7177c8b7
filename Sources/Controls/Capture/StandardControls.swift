import Foundation
import Synchronization

/// The pipeline's control set for one device: system exposure bias and zoom sliders, contrast,
/// saturation, a white-balance picker with temperature and tint sliders, a filter picker, a grid toggle.
///
/// Every control is made from its key's ``ControlDescriptor``: its kind, title, symbol, range, starting
/// value, prominent values, value format and overlay position. Overlay order puts the common controls in
/// the middle: grid, white balance, temperature, contrast, exposure, zoom, saturation, tint, filter. The
/// controls are the one source of truth: every change — a user's slide or selection (through a session,
/// `perform(_:)` or the control itself) or a value set from code — publishes the resulting `ControlState`
/// to `live` before the call returns, and every user change is recorded when a recorder is set.
/// `apply(_:)` pushes a whole state in and publishes it once. Each control's `accessibilityIdentifier` is
/// its name in its key's ``ControlDescriptor`` (the temperature slider's is `temperature`).
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
  /// The controls in overlay order (common controls in the middle).
  public let all: [any CaptureControl]
  /// The slider of each key that has one (white balance: the temperature slider).
  let sliders: [ControlKey: CaptureSlider]
  /// The picker of each key that has one.
  let pickers: [ControlKey: CaptureIndexPicker]
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
    var made: [(position: Int, control: any CaptureControl)] = []
    var sliders: [ControlKey: CaptureSlider] = [:]
    var pickers: [ControlKey: CaptureIndexPicker] = [:]
    for described in ControlKey.controls {
      let control: any CaptureControl
      switch described.appearance {
      case .systemExposureBiasSlider: control = try CaptureSlider.systemExposureBias(device: device)
      case .systemZoomSlider: control = try CaptureSlider.systemZoom(device: device)
      case .slider(let title, let symbolName, let valueFormat):
        control = try Self.slider(
          for: described.key, title: title, symbolName: symbolName, valueFormat: valueFormat)
      case .picker(let title, let symbolName):
        control = try Self.picker(for: described.key, title: title, symbolName: symbolName)
      }
      control.accessibilityIdentifier = described.name
      if let slider = control as? CaptureSlider { sliders[described.key] = slider }
      if let picker = control as? CaptureIndexPicker { pickers[described.key] = picker }
      made.append((described.overlayPosition, control))
    }
    all = made.sorted { $0.position < $1.position }.map(\.control)
    self.sliders = sliders
    self.pickers = pickers
    exposureBias = try Self.member("exposure-bias", of: .exposureBias, in: sliders)
    zoom = try Self.member("zoom", of: .zoom, in: sliders)
    contrast = try Self.member("contrast", of: .contrast, in: sliders)
    saturation = try Self.member("saturation", of: .saturation, in: sliders)
    whiteBalance = try Self.member("white-balance", of: .whiteBalance, in: pickers)
    temperature = try Self.member("temperature", of: .whiteBalance, in: sliders)
    tint = try Self.member("tint", of: .tint, in: sliders)
    filter = try Self.member("filter", of: .filter, in: pickers)
    grid = try Self.member("grid", of: .grid, in: pickers)
    for slider in sliders.values {
      slider.observe { [weak self] _, origin in self?.controlChanged(slider, by: origin) }
    }
    for picker in pickers.values {
      picker.observe { [weak self] _, origin in self?.controlChanged(picker, by: origin) }
    }
    live.set(state)
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
    var state = ControlState(
      zoomCenter: extras.withLock { $0.zoomCenter }, whiteBalance: balance,
      filter: Filter.allCases[filter.selectedIndex])
    for (key, slider) in sliders {
      if case .number(_, _, let value) = key.descriptor.kind {
        state[keyPath: value] = slider.value
      }
    }
    for (key, picker) in pickers {
      if case .toggle(let value) = key.descriptor.kind { state[keyPath: value] = picker.isOn }
    }
    return state
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
    // In key order: the first value out of its slider's range is the one reported.
    let settings: [(CaptureSlider, Double)] = ControlKey.allCases.compactMap { key in
      guard let slider = sliders[key] else { return nil }
      switch key.descriptor.kind {
      case .number(_, _, let value): return (slider, state[keyPath: value])
      case .whiteBalance: return (slider, kelvin)
      case .point, .filter, .toggle: return nil
      }
    }
    for (slider, value) in settings where !(value.isFinite && slider.values.range.contains(value)) {
      throw .valueOutOfRange(
        control: slider.title, value: value, allowed: slider.values.allowedDescription)
    }
    try Self.check(state.zoomCenter)
    try publishingOnce { () throws(ControlError) in
      for (slider, value) in settings { try slider.setValue(value) }
      try whiteBalance.setSelectedIndex(wbIndex)
      try filter.setSelectedIndex(Filter.allCases.firstIndex(of: state.filter) ?? 0)
      for (key, picker) in pickers {
        if case .toggle(let value) = key.descriptor.kind {
          try picker.setSelectedIndex(state[keyPath: value] ? 1 : 0)
        }
      }
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
    pickers[name] ?? sliders[name]
  }

  /// The control named `name` or one of its aliases (a ``ControlDescriptor/Control`` name, as
  /// `--control` and the studio use: `exposure-bias`, `ev`, `temperature`), ignoring case.
  public func control(named name: String) -> (any CaptureControl)? {
    guard let named = ControlKey.control(named: name) else { return nil }
    return all.first { $0.accessibilityIdentifier == named.name }
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
  /// (A slider's value, a picker's option in the state vocabulary: `4500K`, `mono`, `on`.)
  private func gesture(for control: any CaptureControl) -> TimelineAction? {
    if let (key, slider) = sliders.first(where: { $0.value === control }) {
      return .slide(key, value: slider.value)
    }
    guard let key = pickers.first(where: { $0.value === control })?.key else { return nil }
    return .select(key, option: state.text(for: key))
  }
}

extension StandardControls {
  /// A slider over `key`'s range, as its descriptor's ``ControlDescriptor/Appearance/slider(title:symbolName:valueFormat:)``
  /// describes it.
  ///
  /// - Throws: `ControlError.invalidRange` for a key without a range (a filter, a toggle).
  static func slider(
    for key: ControlKey, title: String, symbolName: String, valueFormat: String
  ) throws(ControlError) -> CaptureSlider {
    let (start, prominent): (Double?, [Double]) =
      switch key.descriptor.kind {
      case .number(_, _, let value):
        (ControlState.identity[keyPath: value], [ControlState.identity[keyPath: value]])
      case .whiteBalance: (neutralKelvin, WhiteBalancePreset.allCases.map(\.kelvin))
      case .point, .filter, .toggle: (nil, [])
      }
    let slider = try CaptureSlider(
      title, symbolName: symbolName, in: key.descriptor.range ?? 0...0, defaultValue: start)
    try slider.setProminentValues(prominent)
    slider.localizedValueFormat = valueFormat
    return slider
  }

  /// A picker of `key`'s options: the white-balance titles, the filters, or off and on for a toggle.
  ///
  /// - Throws: `ControlError.noIndexes` for a key of numbers.
  static func picker(for key: ControlKey, title: String, symbolName: String) throws(ControlError)
    -> CaptureIndexPicker
  {
    switch key.descriptor.kind {
    case .toggle: .toggle(title, symbolName: symbolName)
    case .whiteBalance:
      try CaptureIndexPicker(
        title, symbolName: symbolName, localizedIndexTitles: whiteBalanceTitles)
    case .filter:
      try CaptureIndexPicker(
        title, symbolName: symbolName,
        localizedIndexTitles: Filter.allCases.map(\.rawValue.capitalized))
    case .number, .point:
      try CaptureIndexPicker(title, symbolName: symbolName, localizedIndexTitles: [])
    }
  }

  /// The control named `name` that the descriptor of `key` makes.
  private static func member<Control>(
    _ name: String, of key: ControlKey, in made: [ControlKey: Control]
  ) throws(ControlError) -> Control {
    guard let control = made[key] else { throw .notDescribed(control: name, key: key.cliName) }
    return control
  }

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
