import Foundation

extension CaptureSession {
  /// Sets the controls delegate and the serial queue its events arrive on; `nil` removes it (dismissing
  /// the overlay first if it is showing).
  ///
  /// - Throws: `SessionError.missingDelegateQueue` when a delegate comes without a queue.
  public func setControlsDelegate(
    _ delegate: (any CaptureSessionControlsDelegate)?, queue: DispatchQueue?
  ) throws(SessionError) {
    if delegate != nil && queue == nil { throw .missingDelegateQueue }
    state.withLock { state in
      if delegate == nil { deactivateOverlay(&state) }
      state.delegate = delegate
      state.delegateQueue = delegate == nil ? nil : queue
    }
  }

  /// Whether the overlay can show: the session runs, has a control, and has a delegate with a queue.
  public var canActivateControls: Bool {
    state.withLock { Self.canActivate($0) }
  }

  /// Whether the overlay is showing.
  public var isOverlayActive: Bool { state.withLock { $0.overlay != .inactive } }

  /// The control the overlay shows, while it is showing.
  public var overlayControl: (any CaptureControl)? { state.withLock { $0.overlayControl } }

  /// A light press on the Camera Control: shows the overlay (did become active, then will enter
  /// fullscreen) opened on the last control used, or else on the middle control.
  ///
  /// - Returns: whether the overlay is now showing; false when `canActivateControls` is false.
  @discardableResult
  public func lightPress() -> Bool {
    state.withLock { state in
      guard Self.canActivate(state) else { return false }
      guard state.overlay == .inactive else { return true }
      let remembered = state.lastUsedKey.flatMap { key in
        state.controls.first { $0.memoryKey == key }
      }
      state.overlayControl = remembered ?? state.controls[state.controls.count / 2]
      state.overlay = .fullscreen
      send(state, .didBecomeActive)
      send(state, .willEnterFullscreen)
      return true
    }
  }

  /// A light double-press on the Camera Control: shows the list of the session's controls to pick from
  /// (HIG: "A person can view the available controls by lightly double-pressing the Camera Control"),
  /// opening the overlay first if it is hidden; `selectOverlayControl(_:)` picks one and closes the list.
  ///
  /// - Returns: whether the list is now showing; false when `canActivateControls` is false.
  @discardableResult
  public func lightDoublePress() -> Bool {
    guard lightPress() else { return false }
    state.withLock { $0.overlay = .controlList }
    return true
  }

  /// Whether the overlay shows the list of controls (after a light double-press).
  public var isShowingControlList: Bool { state.withLock { $0.overlay == .controlList } }

  /// Acts on a press the `PressRecognizer` recognised: a light (secondary) press opens the overlay, a
  /// light double-press shows the list of controls; other presses belong to the capture event
  /// interaction and change nothing here.
  ///
  /// - Returns: whether the overlay changed or is showing as asked.
  @discardableResult
  public func handle(_ press: PressRecognizer.Recognized) -> Bool {
    guard press.kind == .secondary else { return false }
    switch press.gesture {
    case .single: return lightPress()
    case .double: return lightDoublePress()
    case .long: return false
    }
  }

  /// Dismisses the overlay (will exit fullscreen, then did become inactive); nothing happens if hidden.
  public func dismissOverlay() {
    state.withLock { deactivateOverlay(&$0) }
  }

  /// The user picks `control` in the overlay's list (after a light double-press); it becomes the last
  /// control used, remembered in `overlayMemory` (saving is best effort: the choice holds for this
  /// session even if the file cannot be written).
  ///
  /// - Throws: `SessionError.notInSession` when `control` is not in the session.
  public func selectOverlayControl(_ control: any CaptureControl) throws(SessionError) {
    try markUsed(control)
    state.withLock { state in
      if state.overlay == .controlList { state.overlay = .fullscreen }
    }
  }

  /// A user's slide on `slider` through the overlay; see `CaptureSlider.userSlide(to:)`.
  ///
  /// - Returns: the landed value.
  /// - Throws: `SessionError.notInSession`, or `ControlError` when disabled or the value is not finite.
  @discardableResult
  public func userSlide(_ slider: CaptureSlider, to proposed: Double) throws -> Double {
    try markUsed(slider)
    return try slider.userSlide(to: proposed)
  }

  /// A user's selection on `picker` through the overlay; see `CaptureIndexPicker.userSelect(_:)`.
  ///
  /// - Throws: `SessionError.notInSession`, or `ControlError` when disabled or the index is out of range.
  public func userSelect(_ picker: CaptureIndexPicker, index: Int) throws {
    try markUsed(picker)
    try picker.userSelect(index)
  }

  /// The `memoryKey` of the last control used, from this session or an earlier one with the same memory.
  public var lastUsedControlKey: String? { state.withLock { $0.lastUsedKey } }

  func deactivateOverlay(_ state: inout State) {
    guard state.overlay != .inactive else { return }
    send(state, .willExitFullscreen)
    send(state, .didBecomeInactive)
    state.overlay = .inactive
    state.overlayControl = nil
  }

  private func markUsed(_ control: any CaptureControl) throws(SessionError) {
    let key = control.memoryKey
    try state.withLock { (state: inout State) throws(SessionError) in
      guard state.controls.contains(where: { $0 === control }) else {
        throw .notInSession(control: control.title)
      }
      state.lastUsedKey = key
      if state.overlay != .inactive { state.overlayControl = control }
    }
    try? overlayMemory?.remember(key)
  }

  private static func canActivate(_ state: State) -> Bool {
    state.isRunning && !state.controls.isEmpty && state.delegate != nil
      && state.delegateQueue != nil
  }

  /// Queues one delegate event; called with the lock held so events keep their order.
  private func send(_ state: State, _ event: DelegateEvent) {
    guard let delegate = state.delegate, let queue = state.delegateQueue else { return }
    queue.async { event.deliver(to: delegate, session: self) }
  }
}

/// One of the four controls-delegate events.
enum DelegateEvent: Sendable {
  case didBecomeActive, willEnterFullscreen, willExitFullscreen, didBecomeInactive

  func deliver(to delegate: any CaptureSessionControlsDelegate, session: CaptureSession) {
    switch self {
    case .didBecomeActive: delegate.sessionControlsDidBecomeActive(session)
    case .willEnterFullscreen: delegate.sessionControlsWillEnterFullscreenAppearance(session)
    case .willExitFullscreen: delegate.sessionControlsWillExitFullscreenAppearance(session)
    case .didBecomeInactive: delegate.sessionControlsDidBecomeInactive(session)
    }
  }
}
