import Foundation

/// How a keyframed slide moves its control: from the control's value at the event's time to the event's
/// value over `duration` seconds, along `curve`.
///
/// At time `t` the control is `from + (to − from) · curve(p)` with `p = (t − start) / duration`, clamped to
/// 0 … 1: `from` before the event and exactly `to` from `start + duration` on.
public struct TimelineTransition: Sendable, Hashable {
  /// Seconds the move lasts: finite and 0 or more (0 is an instant slide).
  public var duration: Double
  /// How progress is eased.
  public var curve: TimelineCurve

  /// Creates a transition (checked when a ``Timeline`` is made of it).
  public init(duration: Double, curve: TimelineCurve = .linear) {
    self.duration = duration
    self.curve = curve
  }
}

/// The easing of a keyframed slide: progress `p` (0 … 1 of the duration) to the fraction of the move done.
public enum TimelineCurve: String, Sendable, Hashable, CaseIterable {
  /// Constant speed: `p`.
  case linear
  /// Smoothstep, slow at both ends: `3p² − 2p³` (speed 0 at the start and end, fastest in the middle).
  case easeInOut = "ease-in-out"

  /// The fraction of the move done at progress `p` (clamped to 0 … 1).
  public func fraction(_ p: Double) -> Double {
    let p = min(max(p, 0), 1)
    switch self {
    case .linear: return p
    case .easeInOut: return p * p * (3 - 2 * p)
    }
  }
}
