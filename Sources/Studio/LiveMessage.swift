import Foundation

/// A text message the page sends over the `/live` WebSocket (JSON objects, told apart by `type`):
///
/// - `{"type": "state", "seq": 12, "state": {"exposureBias": 0.5}}`: a state change (keys as in
///   `POST /state`); `seq` is the page's own counter, echoed with the first frame that shows the change.
/// - `{"type": "shown", "generation": 7, "latencyMs": 23.5}`: the last frame sent is on screen (the server
///   sends no other frame until then: latest wins); `latencyMs`, when present, is the time from the
///   input event to the frame on screen.
/// - `{"type": "press", "phase": "began", "kind": "secondary"}`: the Camera Control pressed (lightly:
///   `secondary`, fully: `primary`) or released (`ended`).
/// - `{"type": "choose", "control": "zoom"}`: a control picked from the overlay's list.
public enum LiveMessage: Sendable, Equatable {
  /// A state change: the JSON object of state keys, and the page's sequence number.
  case state(json: Data, seq: Int?)
  /// The frame sent last is displayed, with the latency measured for it, if any.
  case shown(latencyMs: Double?)
  /// A press of the on-screen Camera Control or its keys: a phase (`began`, `ended`, `cancelled`) and
  /// a kind (`primary`: full press, `secondary`: light press), checked by the backend.
  case press(phase: String, kind: String)
  /// A control picked from the list: its name as in `studio.json`.
  case choose(control: String)

  /// Why a message was not understood (sent back to the page as an error).
  public struct Problem: Error, Sendable, Equatable {
    /// A sentence naming the problem.
    public var message: String
  }

  /// Reads one text message.
  public init(text: Data) throws(Problem) {
    let object: [String: Any]
    do {
      guard let parsed = try JSONSerialization.jsonObject(with: text) as? [String: Any] else {
        throw Problem(message: "a /live message must be a JSON object with a \"type\"")
      }
      object = parsed
    } catch let problem as Problem {
      throw problem
    } catch {
      throw Problem(message: "a /live message is not valid JSON")
    }
    switch object["type"] as? String {
    case "state":
      guard let state = object["state"] as? [String: Any],
        let json = try? JSONSerialization.data(withJSONObject: state)
      else {
        throw Problem(message: "a \"state\" message needs a \"state\" object of control keys")
      }
      self = .state(json: json, seq: (object["seq"] as? NSNumber)?.intValue)
    case "shown":
      self = .shown(latencyMs: (object["latencyMs"] as? NSNumber)?.doubleValue)
    case "press":
      guard let phase = object["phase"] as? String, let kind = object["kind"] as? String else {
        throw Problem(message: "a \"press\" message needs a \"phase\" and a \"kind\" (strings)")
      }
      self = .press(phase: phase, kind: kind)
    case "choose":
      guard let control = object["control"] as? String else {
        throw Problem(message: "a \"choose\" message needs a \"control\" name (a string)")
      }
      self = .choose(control: control)
    default:
      throw Problem(
        message: "a /live message's \"type\" must be \"state\", \"shown\", \"press\" or \"choose\"")
    }
  }
}
