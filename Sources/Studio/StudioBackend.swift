import Foundation

/// What the studio server asks of the program that runs it (FrameDial's control state and renderer, glued
/// in by the command line). The server calls it on its own event-loop thread, so every call must return
/// quickly: rendering happens elsewhere, and frames come back through ``StudioServer/publish(frame:generation:)``.
public protocol StudioBackend: Sendable {
  /// The current control state as a JSON object (the format `--state` files take).
  func stateJSON() -> Data
  /// The generation of the current state: it grows by one with every change.
  var generation: UInt64 { get }
  /// Applies a JSON object of state keys over the current state (keys not given keep their values).
  func applyState(json: Data) -> StateChange
  /// The value labels the overlay shows for the current state, by control name ("+1.0 EV").
  func labels() -> [String: String]
  /// The document `GET /studio.json` serves: what the page draws.
  func pageConfiguration() -> Data
}

/// The outcome of ``StudioBackend/applyState(json:)``.
public enum StateChange: Sendable, Equatable {
  /// The state was applied; `generation` is the state's generation afterwards (unchanged when the values
  /// were the ones already set).
  case applied(generation: UInt64)
  /// The JSON was refused; `message` says why (key, value, allowed range).
  case rejected(message: String)
}
