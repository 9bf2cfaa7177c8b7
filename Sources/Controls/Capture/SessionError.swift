import Foundation

/// A session refused a change to its controls; every message names the control and what is allowed.
public enum SessionError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// The session's device has no Camera Control.
  case controlsNotSupported(control: String, device: String)
  /// The control is already in the session.
  case duplicate(control: String)
  /// A custom slider or picker has no action.
  case missingAction(control: String)
  /// Controls cannot be added or removed while the session runs.
  case frozenWhileRunning(control: String, operation: String)
  /// The control is not in the session.
  case notInSession(control: String)
  /// The session has its camera input already.
  case inputAlreadyAdded(device: String)
  /// A controls delegate was set without the queue its events arrive on.
  case missingDelegateQueue
  /// Another configuration changed the controls while this one ran; nothing of this one was kept.
  case concurrentConfiguration

  /// A complete sentence describing the problem.
  public var description: String {
    switch self {
    case .controlsNotSupported(let control, let device):
      "The control \"\(control)\" cannot be added: the device \"\(device)\" has no Camera Control (allowed: 0 controls)."
    case .duplicate(let control):
      "The control \"\(control)\" is already in the session; each control can be added once."
    case .missingAction(let control):
      "The control \"\(control)\" has no action; set one with setActionQueue(_:action:) before adding it."
    case .frozenWhileRunning(let control, let operation):
      "The control \"\(control)\" cannot be \(operation) while the session is running; stop the session, or enable and disable controls instead."
    case .notInSession(let control):
      "The control \"\(control)\" is not in the session; add it before using or removing it."
    case .inputAlreadyAdded(let device):
      "The session already has its camera input \"\(device)\"; a session takes one camera."
    case .missingDelegateQueue:
      "A controls delegate needs a serial queue for its events; pass one with the delegate (or nil for both to remove it)."
    case .concurrentConfiguration:
      "The session's controls were changed by another configuration at the same time; none of this configuration's changes were kept, so run it again."
    }
  }

  /// The same text as `description`.
  public var errorDescription: String? { description }
}
