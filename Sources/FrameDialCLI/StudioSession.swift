import Controls
import Foundation
import FrameDial
import Studio

/// FrameDial's side of `framedial studio`: the live control state the server reads and changes, the
/// overlay's labels and the page's configuration. Changes wake the frame loop, which renders the latest
/// state only.
final class StudioSession: StudioBackend {
  /// The state the frames are rendered from.
  let live: LiveControlState
  private let selections: [ControlSelection]
  private let configuration: Data
  private let changed: @Sendable () -> Void

  /// Creates a session over `live`, labelling values with the standard controls of `model`; `changed`
  /// runs after every change that took effect.
  init(
    live: LiveControlState, model: CaptureDeviceModel, configuration: Data,
    changed: @escaping @Sendable () -> Void
  ) throws {
    self.live = live
    selections = try ControlSelection.Name.allCases.map { name in
      try ControlSelection(name.rawValue, device: model)
    }
    self.configuration = configuration
    self.changed = changed
  }

  func stateJSON() -> Data {
    (try? live.snapshot().state.jsonData()) ?? Data("{}".utf8)
  }

  var generation: UInt64 { live.generation }

  /// Applies the JSON keys over the current state atomically; a bad key or value changes nothing and
  /// comes back as FrameDial's own message (with the line and column of the key).
  func applyState(json: Data) -> StateChange {
    let before = live.generation
    do {
      let snapshot = try live.update { (state: inout ControlState) throws(ControlStateError) in
        state = try state.applying(json: json)
      }
      if snapshot.generation != before { changed() }
      return .applied(generation: snapshot.generation)
    } catch {
      return .rejected(message: error.description)
    }
  }

  /// The overlay's value label of every control for the current state ("+1.0 EV", "Tungsten").
  func labels() -> [String: String] {
    let state = live.snapshot().state
    var labels: [String: String] = [:]
    for selection in selections {
      if let overlay = selection.overlay(for: state, gridOn: state.grid) {
        labels[selection.name.rawValue] = overlay.valueText
      }
    }
    return labels
  }

  func pageConfiguration() -> Data { configuration }
}
