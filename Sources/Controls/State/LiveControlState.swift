import Foundation
import Synchronization

/// The latest `ControlState`, shared between threads that change controls and a thread that renders.
///
/// Readers take a `Snapshot` (a copy) and render without holding any lock; the lock is held only to copy
/// or replace the value. The generation grows by one on every change, so a renderer can compare it with
/// the generation it rendered last.
public final class LiveControlState: Sendable {
  /// A consistent copy of the state, its generation and when it was set.
  public struct Snapshot: Sendable, Hashable {
    /// The state.
    public var state: ControlState
    /// Starts at 0 and grows by one every time the state changes.
    public var generation: UInt64
    /// When the state was set, on the continuous clock (for latency measurement).
    public var updatedAt: ContinuousClock.Instant
  }

  private let storage: Mutex<Snapshot>

  /// Creates a live state holding `initial` at generation 0.
  public init(_ initial: ControlState = .identity) {
    storage = Mutex(Snapshot(state: initial, generation: 0, updatedAt: ContinuousClock.now))
  }

  /// A copy of the latest state with its generation and time.
  public func snapshot() -> Snapshot {
    storage.withLock { $0 }
  }

  /// The latest generation, without copying the state.
  public var generation: UInt64 {
    storage.withLock { $0.generation }
  }

  /// The latest snapshot if its generation is newer than `generation`, else `nil`.
  public func snapshot(newerThan generation: UInt64) -> Snapshot? {
    storage.withLock { $0.generation > generation ? $0 : nil }
  }

  /// Replaces the state; setting the value it already holds changes nothing.
  ///
  /// - Returns: the snapshot after the call.
  @discardableResult
  public func set(_ state: ControlState) -> Snapshot {
    update { $0 = state }
  }

  /// Changes the state atomically with respect to other writers; the generation grows only if it changed.
  ///
  /// - Returns: the snapshot after the call.
  /// If `change` throws, the state stays as it was.
  @discardableResult
  public func update<E: Error>(_ change: (inout ControlState) throws(E) -> Void) throws(E)
    -> Snapshot
  {
    try storage.withLock { (snapshot: inout Snapshot) throws(E) -> Snapshot in
      var state = snapshot.state
      try change(&state)
      if state != snapshot.state {
        snapshot = Snapshot(
          state: state, generation: snapshot.generation + 1, updatedAt: ContinuousClock.now)
      }
      return snapshot
    }
  }
}
