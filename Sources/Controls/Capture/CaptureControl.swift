import Foundation

/// A capture mode; controls can be limited to some modes and the session enables them by mode.
public enum CaptureMode: String, Sendable, Hashable, CaseIterable, Codable {
  /// Still photos.
  case photo
  /// Video recording.
  case video
}

/// A control shown in the Camera Control overlay (Apple's `AVCaptureControl`).
///
/// Controls are reference types: the session, the overlay and the app share the same instance.
public protocol CaptureControl: AnyObject, Sendable {
  /// The short localized title shown in the overlay.
  var title: String { get }
  /// The SF Symbols name shown with the control (not validated).
  var symbolName: String { get }
  /// Whether the control can be adjusted; a disabled control stays in the session and keeps its value.
  var isEnabled: Bool { get set }
  /// An identifier for accessibility and for remembering the last control used.
  var accessibilityIdentifier: String? { get set }
  /// The capture modes in which `CaptureSession.setCaptureMode(_:)` enables the control.
  var captureModes: Set<CaptureMode> { get set }
  /// Whether the session refuses the control until it has an action (custom sliders and pickers).
  var requiresAction: Bool { get }
  /// Whether an action is set.
  var hasAction: Bool { get }
}

extension CaptureControl {
  /// The name FrameDial remembers the control by: its accessibility identifier, or else its title.
  public var memoryKey: String { accessibilityIdentifier ?? title }
}

/// The properties every control shares, kept together behind each control's lock.
struct ControlAttributes: Sendable {
  var isEnabled = true
  var accessibilityIdentifier: String?
  var captureModes: Set<CaptureMode> = Set(CaptureMode.allCases)
}

/// Who changed a control's value: a person (a user slide or selection) or code.
enum ChangeOrigin: Sendable, Equatable {
  case user
  case code
}

/// Called on the changing thread, with no lock held, after every change of a control's value.
typealias ChangeObserver<Value: Sendable> = @Sendable (Value, ChangeOrigin) -> Void

/// An action and the queue it runs on.
struct ControlAction<Value: Sendable>: Sendable {
  let queue: DispatchQueue
  let body: @Sendable (Value) -> Void

  func run(with value: Value) {
    let body = body
    queue.async { body(value) }
  }
}
