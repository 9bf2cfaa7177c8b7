import Foundation
import Synchronization

/// Receives hardware capture presses (AVKit's `AVCaptureEventInteraction`).
///
/// Nothing arrives until `attach()`; `isEnabled` switches delivery off without detaching. The handler
/// runs on the thread that calls `deliver(_:)`.
public final class CaptureEventInteraction: Sendable {
  private struct Flags: Sendable {
    var isAttached = false
    var isEnabled = true
  }

  private let handler: @Sendable (CaptureEvent) -> Void
  private let flags = Mutex(Flags())

  /// Creates a detached, enabled interaction that passes presses to `handler`.
  public init(handler: @escaping @Sendable (CaptureEvent) -> Void) {
    self.handler = handler
  }

  /// Starts receiving presses.
  public func attach() { flags.withLock { $0.isAttached = true } }

  /// Stops receiving presses.
  public func detach() { flags.withLock { $0.isAttached = false } }

  /// Whether the interaction is attached.
  public var isAttached: Bool { flags.withLock { $0.isAttached } }

  /// Whether attached presses reach the handler.
  public var isEnabled: Bool {
    get { flags.withLock { $0.isEnabled } }
    set { flags.withLock { $0.isEnabled = newValue } }
  }

  /// Delivers a press to the handler if the interaction is attached and enabled.
  ///
  /// - Returns: whether the handler received it.
  @discardableResult
  public func deliver(_ event: CaptureEvent) -> Bool {
    let receives = flags.withLock { $0.isAttached && $0.isEnabled }
    if receives { handler(event) }
    return receives
  }
}
