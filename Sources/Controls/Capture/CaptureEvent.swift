import Foundation

/// A press on a hardware capture button, as delivered to a `CaptureEventInteraction`.
public struct CaptureEvent: Sendable, Hashable, Codable {
  /// Where the press is in its life.
  public enum Phase: String, Sendable, Hashable, Codable, CaseIterable {
    /// The button went down.
    case began
    /// The button came up: the press is complete.
    case ended
    /// The press was abandoned (for example the app lost focus).
    case cancelled
  }

  /// Which source sent the press.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A full press of the Camera Control, volume down, or the Action button.
    case primary
    /// Volume up, or the Camera Control's light press.
    case secondary
  }

  /// The phase.
  public var phase: Phase
  /// The kind.
  public var kind: Kind

  /// Creates an event.
  public init(phase: Phase, kind: Kind) {
    self.phase = phase
    self.kind = kind
  }

  /// Whether this is the event that takes a still photo in a typical app: a primary press that ended.
  public var isPrimaryPressCompletion: Bool { phase == .ended && kind == .primary }
}
