import Controls
import Foundation
import FrameDial
import FrameDialCLI
import JSON
import Studio

/// FrameDial's side of `framedial studio`: the live control state the server reads and changes, the
/// overlay's labels and the page's configuration, the Camera Control's presses and overlay, the gesture
/// recording and the downloads. Changes wake the frame loop, which renders the latest state only.
final class StudioSession: StudioBackend {
  /// The state the frames are rendered from.
  let live: LiveControlState
  private let selections: [ControlSelection]
  private let configuration: Data
  private let changed: @Sendable () -> Void
  private let shown: @Sendable (Int, Int) -> Void
  private let wanted: @Sendable (Bool, Bool) -> Void
  private let overlay: StudioOverlay
  private let recording = StudioRecording()
  private let downloads: StudioDownloads

  /// Creates a session over `live`, labelling values with the standard controls of `model`; `changed`
  /// runs after every change that took effect, `overlayChanged` when the overlay opens or closes by
  /// itself (a press recognised late, the idle timeout), `viewfinderShown` with the page's displayed
  /// viewfinder size in device pixels, `framesWanted` with the frame formats the server needs (RGBA,
  /// JPEG). Captures and looks are made from `downloads`.
  init(
    live: LiveControlState, model: CaptureDeviceModel, configuration: Data,
    downloads: StudioDownloads, changed: @escaping @Sendable () -> Void,
    overlayChanged: @escaping @Sendable () -> Void,
    viewfinderShown: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
    framesWanted: @escaping @Sendable (Bool, Bool) -> Void = { _, _ in }
  ) throws {
    self.live = live
    self.downloads = downloads
    overlay = try StudioOverlay(model: model, changed: overlayChanged)
    selections = try ControlKey.controls.map { control in
      try ControlSelection(control.name, device: model)
    }
    self.configuration = configuration
    self.changed = changed
    shown = viewfinderShown
    wanted = framesWanted
  }

  func stateJSON() -> Data {
    (try? live.snapshot().state.jsonData()) ?? Data("{}".utf8)
  }

  var generation: UInt64 { live.generation }

  /// Applies the JSON keys over the current state atomically; a bad key or value changes nothing and
  /// comes back as FrameDial's own message (with the line and column of the key).
  func applyState(json: Data) -> StateChange {
    applyState { (state) throws(ControlStateError) in try state.applying(json: json) }
  }

  /// Applies the keys of the object `members` over the current state as ``applyState(json:)`` does
  /// (its message names no line: the object was read from a larger document).
  func applyState(members: JSONValue) -> StateChange {
    applyState { (state) throws(ControlStateError) in try state.applying(jsonValue: members) }
  }

  /// Applies `change` to the current state atomically, records it and tells the frame loop.
  private func applyState(
    _ change: (ControlState) throws(ControlStateError) -> ControlState
  ) -> StateChange {
    let before = live.generation
    do {
      var actions: [TimelineAction] = []
      let snapshot = try live.update { (state: inout ControlState) throws(ControlStateError) in
        let earlier = state
        state = try change(state)
        actions = state.timelineActions(from: earlier)
      }
      recording.record(actions)
      overlay.touch()
      if snapshot.generation != before { changed() }
      return .applied(generation: snapshot.generation)
    } catch {
      return .rejected(message: error.description)
    }
  }

  /// A drag of the slider named `control` ending at `value`, landed as the Camera Control model lands a
  /// user's slide (near a prominent value, on it), then applied as a state change.
  func slide(control: String, to value: Double) -> StateChange {
    guard let landed = overlay.landing(of: control, at: value) else {
      return .rejected(message: "no slider named \"\(control)\"")
    }
    let key = StudioPageConfiguration.jsonKey(ofControl: control)
    return applyState(members: .object([key: .number(landed)]))
  }

  /// The overlay's value label of every control for the current state ("+1.0 EV", "Tungsten").
  func labels() -> [String: String] {
    let state = live.snapshot().state
    var labels: [String: String] = [:]
    for selection in selections {
      if let overlay = selection.overlay(for: state, gridOn: state.grid) {
        labels[selection.control.name] = overlay.valueText
      }
    }
    return labels
  }

  func pageConfiguration() -> Data { configuration }

  func overlayJSON() -> Data { overlay.json() }

  /// A raw press from the page: recorded, passed to the overlay's model, and a completed full press
  /// (primary, ended: where an app captures a still) asks the page to download the capture.
  func press(phase: String, kind: String) -> PressOutcome {
    guard let phase = CaptureEvent.Phase(rawValue: phase) else {
      return .rejected(
        message: "unknown press phase \"\(phase)\"; allowed: began, ended, cancelled")
    }
    guard let kind = CaptureEvent.Kind(rawValue: kind) else {
      return .rejected(message: "unknown press kind \"\(kind)\"; allowed: primary, secondary")
    }
    let event = CaptureEvent(phase: phase, kind: kind)
    recording.record([.press(event)])
    overlay.receive(event)
    return .accepted(capture: event.isPrimaryPressCompletion)
  }

  func chooseControl(_ name: String) -> String? { overlay.choose(name) }

  func viewfinderShown(width: Int, height: Int) { shown(width, height) }

  func framesWanted(rgba: Bool, jpeg: Bool) { wanted(rgba, jpeg) }

  func record(_ start: Bool?) -> RecordingStatus {
    switch start {
    case true?: recording.start(from: live.snapshot().state)
    case false?: recording.stop()
    case nil: break
    }
    return recording.status
  }

  func timelineJSONLines() -> Data { recording.jsonLines() }

  func lookCube() -> Export { downloads.lookCube(live.snapshot().state) }

  func capture(completion: @escaping @Sendable (Export) -> Void) {
    downloads.capture(live.snapshot().state, completion: completion)
  }
}
