import Controls
import Foundation
import FrameDialCLI
import JSON
import Synchronization

/// The Camera Control overlay of `framedial studio`, kept by the Controls model rather than by the page:
/// a running `CaptureSession` holding the standard controls (a light press opens the overlay on the
/// last control used, else the middle one; a light double press shows the list of controls; a control
/// picked from the list becomes the last one used), a `PressRecognizer` that tells single from double
/// presses by the gap between them, and an idle timeout that dismisses the overlay.
final class StudioOverlay: Sendable {
  /// Seconds without a press, a choice or a slide after which the overlay hides. Apple publishes no
  /// figure for the system overlay; this is FrameDial's choice.
  static let idleTimeout = 5.0

  private let session: CaptureSession
  private let controls: [any CaptureControl]
  private let recognizer: PressRecognizer
  private let clock = RealTimeClock()
  private let queue = DispatchQueue(label: "framedial-studio-overlay")
  private let lifecycle: Lifecycle
  /// Grows with every interaction: an idle timer finding it changed does nothing.
  private let activity = Mutex<UInt64>(0)

  /// Creates the overlay of `model`'s standard controls; `changed` runs (on a queue of the overlay's)
  /// when the overlay opens or closes by itself: a single press recognised late, the idle timeout.
  ///
  /// - Throws: `ControlError` or `SessionError` when the device's controls cannot be made or installed.
  init(model: CaptureDeviceModel, changed: @escaping @Sendable () -> Void) throws {
    let device = CaptureDevice(model: model)
    // The controls stand for the overlay's entries only: the frames follow the studio's own state.
    let standard = try StandardControls(device: device)
    controls = standard.all
    session = CaptureSession(device: device)
    recognizer = try PressRecognizer()
    lifecycle = Lifecycle(changed: changed)
    if session.supportsControls {
      try standard.install(in: session)
      try session.setControlsDelegate(lifecycle, queue: queue)
    }
    session.startRunning()
  }

  /// The overlay as the page draws it: `{"visible": …, "list": …, "control": name or null}`.
  func json() -> Data {
    let value: JSONText.Value = [
      "visible": JSONText.Value(session.isOverlayActive),
      "list": JSONText.Value(session.isShowingControlList),
      "control": JSONText.Value(session.overlayControl?.memoryKey),
    ]
    return (try? JSONText.data(value, Self.format)) ?? Data("{}".utf8)
  }

  /// The overlay's JSON: keys sorted numerically ignoring case, `/` escaped (as it was first written).
  private static let format = JSONText.Format(
    keys: .sortedNumericCaseInsensitive, numbers: .plain, strings: .escapingSlash)

  /// Takes a raw press at the current time: a light press (secondary) opens the overlay once it is
  /// known to be single, two quick ones show the list.
  func receive(_ event: CaptureEvent) {
    touch()
    let now = clock.now()
    for press in recognizer.receive(event, at: now) { session.handle(press) }
    guard event.kind == .secondary, event.phase == .ended else { return }
    // A single press is known once no second one can follow.
    queue.asyncAfter(deadline: .now() + recognizer.doublePressInterval + 0.02) { [self] in
      for press in recognizer.advance(to: clock.now()) { session.handle(press) }
    }
  }

  /// Opens the overlay (if hidden) on the control named `name`.
  ///
  /// - Returns: nil, or why the name was refused.
  func choose(_ name: String) -> String? {
    guard let control = controls.first(where: { $0.memoryKey == name }) else {
      let names = controls.map { $0.memoryKey }.joined(separator: ", ")
      return "no control named \"\(name)\"; the controls are \(names)"
    }
    touch()
    guard session.supportsControls else { return nil }
    session.lightPress()
    do {
      try session.selectOverlayControl(control)
    } catch {
      return error.description
    }
    return nil
  }

  /// Where a user's slide of the slider named `name` ending at `proposed` lands under the Camera
  /// Control model (``CaptureSlider/landingValue(for:)``), or nil when no slider has that name.
  func landing(of name: String, at proposed: Double) -> Double? {
    let slider = controls.first { $0.memoryKey == name } as? CaptureSlider
    return slider?.landingValue(for: proposed)
  }

  /// Notes an interaction (a slide): the overlay stays up for another idle timeout.
  func touch() {
    let count = activity.withLock { count in
      count &+= 1
      return count
    }
    queue.asyncAfter(deadline: .now() + Self.idleTimeout) { [self] in
      guard activity.withLock({ $0 }) == count else { return }
      session.dismissOverlay()
    }
  }

  /// Passes the overlay's appearing and disappearing on.
  private final class Lifecycle: CaptureSessionControlsDelegate {
    let changed: @Sendable () -> Void
    init(changed: @escaping @Sendable () -> Void) { self.changed = changed }
    func sessionControlsDidBecomeActive(_ session: CaptureSession) { changed() }
    func sessionControlsWillEnterFullscreenAppearance(_ session: CaptureSession) {}
    func sessionControlsWillExitFullscreenAppearance(_ session: CaptureSession) {}
    func sessionControlsDidBecomeInactive(_ session: CaptureSession) { changed() }
  }
}
