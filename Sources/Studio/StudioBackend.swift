import Foundation
import JSON

/// What the studio server asks of the program that runs it (FrameDial's control state and renderer, glued
/// in by the command line). The server calls it on its own event-loop thread, so every call must return
/// quickly: rendering happens elsewhere, and frames come back through
/// ``StudioServer/publish(frame:generation:renderMilliseconds:preparedMilliseconds:)``.
public protocol StudioBackend: Sendable {
  /// The current control state as a JSON object (the format `--state` files take).
  func stateJSON() -> Data
  /// The generation of the current state: it grows by one with every change.
  var generation: UInt64 { get }
  /// Applies a JSON object of state keys over the current state (keys not given keep their values):
  /// the body of `POST /state`, whose problems are told with their line and column.
  func applyState(json: Data) -> StateChange
  /// Applies the state keys of `members`, an object read from a larger document (a `/live` message's
  /// `state`), over the current state, as ``applyState(json:)`` does.
  func applyState(members: JSONValue) -> StateChange
  /// A drag of the slider named `control` (as in `studio.json`) ending at `value`: the value lands as
  /// the Camera Control model lands a user's slide (a step, a listed value, or a prominent value within
  /// reach), then applies like a state change.
  func slide(control: String, to value: Double) -> StateChange
  /// The value labels the overlay shows for the current state, by control name ("+1.0 EV").
  func labels() -> [String: String]
  /// The document `GET /studio.json` serves: what the page draws.
  func pageConfiguration() -> Data
  /// The overlay as a JSON object: `{"visible": Bool, "list": Bool, "control": name or null}`.
  func overlayJSON() -> Data
  /// A press of the Camera Control sent by the page: `phase` `began`, `ended` or `cancelled`, `kind`
  /// `primary` (a full press) or `secondary` (a light press).
  func press(phase: String, kind: String) -> PressOutcome
  /// The page shows the viewfinder at `width × height` device pixels (its displayed size): frames from
  /// now on should be rendered at that size, never above the source's. Called on every `view` message.
  func viewfinderShown(width: Int, height: Int)
  /// What the server needs of the frames: `rgba` is true while a page on this machine takes raw RGBA
  /// frames (they skip the JPEG encoding and decoding), `jpeg` asks for the newest frame as a JPEG (a
  /// page elsewhere, `GET /frame.jpg`). A frame already handed in without what is asked is handed in
  /// again with it, under the same ``StudioFrame/number``.
  func framesWanted(rgba: Bool, jpeg: Bool)
  /// The user picks the control the overlay shows (by name, as in `studio.json`), opening the overlay.
  ///
  /// - Returns: nil, or why the name was refused.
  func chooseControl(_ name: String) -> String?
  /// Starts a new gesture recording (`true`, forgetting the last one), stops the running one (`false`)
  /// or only reports (`nil`).
  func record(_ start: Bool?) -> RecordingStatus
  /// The gesture timeline recorded (the running recording so far, else the last one) as JSON Lines.
  func timelineJSONLines() -> Data
  /// The look of the current state as a `.cube` 3D LUT (text), or why it has none.
  func lookCube() -> Export
  /// Renders the original image at full size with the current state, off the event-loop thread, and
  /// calls `completion` once (from any thread) with the JPEG or the failure.
  func capture(completion: @escaping @Sendable (Export) -> Void)
}

/// The outcome of ``StudioBackend/press(phase:kind:)``.
public enum PressOutcome: Sendable, Equatable {
  /// The press was taken; `capture` is true when it completed a full press (the page downloads the
  /// still).
  case accepted(capture: Bool)
  /// The press was refused; `message` says why.
  case rejected(message: String)
}

/// Whether a gesture recording runs and how many events it holds.
public struct RecordingStatus: Sendable, Equatable {
  /// A recording is running.
  public var recording: Bool
  /// The events recorded (by the running recording, else by the last one).
  public var events: Int

  /// Creates a status.
  public init(recording: Bool, events: Int) {
    self.recording = recording
    self.events = events
  }
}

/// A file the backend made for a download (`/capture.jpg`, `/look.cube`), or why there is none.
public enum Export: Sendable, Equatable {
  /// The file's bytes.
  case file(Data)
  /// The state cannot be exported this way (409 with the message: auto white balance has no LUT).
  case refused(message: String)
  /// Making the file failed (500 with the message).
  case failed(message: String)
}

/// The outcome of ``StudioBackend/applyState(json:)``.
public enum StateChange: Sendable, Equatable {
  /// The state was applied; `generation` is the state's generation afterwards (unchanged when the values
  /// were the ones already set).
  case applied(generation: UInt64)
  /// The JSON was refused; `message` says why (key, value, allowed range).
  case rejected(message: String)
}
