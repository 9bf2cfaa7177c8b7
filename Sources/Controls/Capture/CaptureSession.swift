import Foundation
import Synchronization

/// A capture session's Camera Control side (Apple's `AVCaptureSession` controls API).
///
/// The list of controls changes through `configure(_:)` (atomic) or `addControl(_:)`/`removeControl(_:)`,
/// and is frozen while the session runs; enabling and disabling controls works at any time. Inside a
/// `configure(_:)` body, the session's own `addControl(_:)`, `removeControl(_:)`, `canAddControl(_:)` and
/// `controls` work on the staged list, so the usual idiom commits all at once:
///
/// ```swift
/// try session.configure { _ in
///   for control in controls where session.canAddControl(control) { try session.addControl(control) }
/// }
/// ```
public final class CaptureSession: Sendable {
  /// Where the overlay is in its lifecycle.
  enum OverlayPhase: Sendable {
    case inactive
    case fullscreen
    /// Showing the list of controls to pick from (after a light double-press).
    case controlList
  }

  struct State: Sendable {
    var controls: [any CaptureControl] = []
    var revision: UInt64 = 0
    var isRunning = false
    var delegate: (any CaptureSessionControlsDelegate)?
    var delegateQueue: DispatchQueue?
    var overlay = OverlayPhase.inactive
    var overlayControl: (any CaptureControl)?
    var lastUsedKey: String?
    var captureMode: CaptureMode?
    /// The configurations being staged, by the thread whose `configure(_:)` body is running.
    var openConfigurations: [pthread_t: CaptureSessionConfiguration] = [:]
    /// The camera input, once added.
    var device: CaptureDevice?
  }

  /// The camera input whose Camera Control the session uses; nil until one is added.
  public var device: CaptureDevice? { state.withLock { $0.device } }
  /// Where the last control used is remembered across sessions, if anywhere.
  public let overlayMemory: OverlayMemory?
  let state: Mutex<State>

  /// Creates a stopped session with no controls, with `device` as its camera input (none when nil: add
  /// one with `addInput(_:)`).
  ///
  /// - Parameters:
  ///   - device: the camera input, or nil for none yet.
  ///   - overlayMemory: where the overlay remembers the last control used; `nil` remembers it only for
  ///     the lifetime of this session.
  public init(device: CaptureDevice? = nil, overlayMemory: OverlayMemory? = nil) {
    self.overlayMemory = overlayMemory
    state = Mutex(State(lastUsedKey: overlayMemory?.lastControlKey(), device: device))
  }

  /// Adds the camera input. Whether controls are supported depends on it: check `supportsControls`
  /// after adding the input, as the scripting guide says.
  ///
  /// - Throws: `SessionError.inputAlreadyAdded` when the session has its camera input already.
  public func addInput(_ device: CaptureDevice) throws(SessionError) {
    try state.withLock { (state: inout State) throws(SessionError) in
      if let existing = state.device { throw .inputAlreadyAdded(device: existing.model.id) }
      state.device = device
    }
  }

  /// Whether the session's camera input has a Camera Control; false before an input is added. When
  /// false no control can be added.
  public var supportsControls: Bool { device?.model.supportsControls ?? false }

  /// The most controls the session accepts (0 when controls are unsupported).
  public var maxControlsCount: Int { supportsControls ? device?.model.maxControlsCount ?? 0 : 0 }

  /// The controls, in overlay order (inside a `configure(_:)` body on this thread: the staged list).
  public var controls: [any CaptureControl] {
    openConfiguration()?.controls ?? state.withLock { $0.controls }
  }

  /// Whether the session is running.
  public var isRunning: Bool { state.withLock { $0.isRunning } }

  /// Whether `control` could be added now (see `addControl(_:)` for the rules); false once the session
  /// holds `maxControlsCount` controls. Inside a `configure(_:)` body it answers for the staged list.
  public func canAddControl(_ control: any CaptureControl) -> Bool {
    if let open = openConfiguration() { return open.canAddControl(control) }
    let (controls, running) = state.withLock { ($0.controls, $0.isRunning) }
    return refusal(adding: control, to: controls, isRunning: running) == nil
      && controls.count < maxControlsCount
  }

  /// Adds `control` at the end of the overlay order. Adding past `maxControlsCount` does nothing and
  /// returns false. Inside a `configure(_:)` body the control is staged and commits with the body.
  ///
  /// - Returns: whether the control was added (false only when the session was full).
  /// - Throws: `SessionError` when controls are unsupported, the control is already in the session, a
  ///   custom slider or picker has no action, or the session is running.
  @discardableResult
  public func addControl(_ control: any CaptureControl) throws -> Bool {
    try configure { try $0.addControl(control) }
  }

  /// Removes `control`.
  ///
  /// - Throws: `SessionError` when the control is not in the session or the session is running.
  public func removeControl(_ control: any CaptureControl) throws {
    try configure { try $0.removeControl(control) }
  }

  /// Runs `body` against a staged copy of the control list and commits it only if `body` returns.
  ///
  /// If `body` throws, nothing it changed stays. If another configuration committed meanwhile, this one
  /// is dropped with `SessionError.concurrentConfiguration`. While `body` runs, the session's own
  /// `addControl(_:)`, `removeControl(_:)`, `canAddControl(_:)`, `controls` and any nested `configure(_:)`
  /// on the same thread work on the staged list and commit with it.
  @discardableResult
  public func configure<Result>(_ body: (CaptureSessionConfiguration) throws -> Result) throws
    -> Result
  {
    if let open = openConfiguration() { return try body(open) }
    let thread = pthread_self()
    let (configuration, revision) = state.withLock { state in
      let configuration = CaptureSessionConfiguration(
        session: self, controls: state.controls, isRunning: state.isRunning)
      state.openConfigurations[thread] = configuration
      return (configuration, state.revision)
    }
    defer { _ = state.withLock { $0.openConfigurations.removeValue(forKey: thread) } }
    let result = try body(configuration)
    let staged = configuration.controls
    try state.withLock { (state: inout State) throws(SessionError) in
      guard state.revision == revision else { throw .concurrentConfiguration }
      if state.isRunning, !Self.sameControls(state.controls, staged) {
        let control = staged.first?.title ?? state.controls.first?.title ?? "?"
        throw .frozenWhileRunning(control: control, operation: "added or removed")
      }
      state.controls = staged
      state.revision += 1
    }
    return result
  }

  /// Enables the controls whose `captureModes` contain `mode` and disables the others, in one call.
  public func setCaptureMode(_ mode: CaptureMode) {
    let controls = state.withLock { state in
      state.captureMode = mode
      return state.controls
    }
    for control in controls {
      control.isEnabled = control.captureModes.contains(mode)
    }
  }

  /// The mode last set with `setCaptureMode(_:)`, if any.
  public var captureMode: CaptureMode? { state.withLock { $0.captureMode } }

  /// Starts the session; from now on the control list is frozen.
  public func startRunning() {
    state.withLock { $0.isRunning = true }
  }

  /// Stops the session, dismissing the overlay first if it is showing.
  public func stopRunning() {
    state.withLock { state in
      deactivateOverlay(&state)
      state.isRunning = false
    }
  }

  /// The configuration this thread is staging, if its `configure(_:)` body is running.
  private func openConfiguration() -> CaptureSessionConfiguration? {
    let thread = pthread_self()
    return state.withLock { $0.openConfigurations[thread] }
  }

  /// Why `control` cannot be added to `controls`, or `nil` if it can.
  func refusal(
    adding control: any CaptureControl, to controls: [any CaptureControl], isRunning: Bool
  )
    -> SessionError?
  {
    if !supportsControls {
      return .controlsNotSupported(control: control.title, device: device?.model.id ?? "(no input)")
    }
    if controls.contains(where: { $0 === control }) { return .duplicate(control: control.title) }
    if control.requiresAction, !control.hasAction { return .missingAction(control: control.title) }
    if isRunning { return .frozenWhileRunning(control: control.title, operation: "added") }
    return nil
  }

  private static func sameControls(_ lhs: [any CaptureControl], _ rhs: [any CaptureControl]) -> Bool
  {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 === $1 }
  }
}

/// A staged change of a session's controls, valid inside `CaptureSession.configure(_:)`.
public final class CaptureSessionConfiguration: Sendable {
  private let session: CaptureSession
  private let isRunning: Bool
  private let staged: Mutex<[any CaptureControl]>

  init(session: CaptureSession, controls: [any CaptureControl], isRunning: Bool) {
    self.session = session
    staged = Mutex(controls)
    self.isRunning = isRunning
  }

  /// The staged controls, in overlay order.
  public var controls: [any CaptureControl] { staged.withLock { $0 } }

  /// Whether `control` could be added to the staged list (false once it holds `maxControlsCount`).
  public func canAddControl(_ control: any CaptureControl) -> Bool {
    staged.withLock { controls in
      session.refusal(adding: control, to: controls, isRunning: isRunning) == nil
        && controls.count < session.maxControlsCount
    }
  }

  /// Adds `control` to the staged list; past `maxControlsCount` it does nothing and returns false.
  ///
  /// - Throws: `SessionError` for the reasons listed at `CaptureSession.addControl(_:)`.
  @discardableResult
  public func addControl(_ control: any CaptureControl) throws(SessionError) -> Bool {
    try staged.withLock { (controls: inout [any CaptureControl]) throws(SessionError) -> Bool in
      if let refusal = session.refusal(adding: control, to: controls, isRunning: isRunning) {
        throw refusal
      }
      guard controls.count < session.maxControlsCount else { return false }
      controls.append(control)
      return true
    }
  }

  /// Removes `control` from the staged list.
  ///
  /// - Throws: `SessionError` when the control is not staged or the session is running.
  public func removeControl(_ control: any CaptureControl) throws(SessionError) {
    try staged.withLock { (controls: inout [any CaptureControl]) throws(SessionError) in
      guard let index = controls.firstIndex(where: { $0 === control }) else {
        throw .notInSession(control: control.title)
      }
      if isRunning { throw .frozenWhileRunning(control: control.title, operation: "removed") }
      controls.remove(at: index)
    }
  }
}
