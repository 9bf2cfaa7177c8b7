import Foundation
import JSON

/// A text message the page sends over the `/live` WebSocket (JSON objects, told apart by `type`):
///
/// - `{"type": "state", "seq": 12, "state": {"exposureBias": 0.5}}`: a state change (keys as in
///   `POST /state`); `seq` is the page's own counter, echoed with the first frame that shows the change.
/// - `{"type": "decoded"}`: the last frame sent is decoded and waits for the page's next animation frame
///   (the server sends no other frame until then: latest wins; the page draws the newest it decoded).
/// - `{"type": "shown", "latencyMs": 23.5}`: a frame is on screen; `latencyMs`, when present, is the
///   time from the input event to the frame on screen.
/// - `{"type": "press", "phase": "began", "kind": "secondary"}`: the Camera Control pressed (lightly:
///   `secondary`, fully: `primary`) or released (`ended`).
/// - `{"type": "choose", "control": "zoom"}`: a control picked from the overlay's list.
/// - `{"type": "slide", "seq": 13, "control": "exposure-bias", "value": 0.1}`: a drag of a slider,
///   ending at `value` for now; the backend lands it as the Camera Control model does (a step, a listed
///   value, or a prominent value within reach) before it changes the state.
/// - `{"type": "view", "width": 460, "height": 259, "format": "rgba"}`: the size the page shows the
///   viewfinder at, in device pixels (sent on connecting and whenever it changes): frames are rendered
///   at that size (the size told last, when several pages are open). `format` (optional): `rgba` asks
///   for raw frames (width × height × 4 bytes, which only a page on the server's machine gets),
///   `jpeg` (the default) for JPEG frames.
public enum LiveMessage: Sendable, Equatable {
  /// A state change: the JSON object of state keys, and the page's sequence number.
  case state(members: JSONValue, seq: Int?)
  /// The frame sent last is decoded: the page takes the next one.
  case decoded
  /// A frame is displayed, with the latency measured for it, if any.
  case shown(latencyMs: Double?)
  /// A press of the on-screen Camera Control or its keys: a phase (`began`, `ended`, `cancelled`) and
  /// a kind (`primary`: full press, `secondary`: light press), checked by the backend.
  case press(phase: String, kind: String)
  /// A control picked from the list: its name as in `studio.json`.
  case choose(control: String)
  /// A drag of the slider named `control` (as in `studio.json`) ending at `value`, and the page's
  /// sequence number.
  case slide(control: String, value: Double, seq: Int?)
  /// The viewfinder's displayed size in device pixels (each 1 … ``largestViewSide``), and whether the
  /// page asks for raw RGBA frames.
  case view(width: Int, height: Int, rawFrames: Bool)

  /// The largest side a `view` message may give, in device pixels.
  public static let largestViewSide = 16384

  /// Why a message was not understood (sent back to the page as an error).
  public struct Problem: Error, Sendable, Equatable {
    /// A sentence naming the problem.
    public var message: String
  }

  /// Reads one text message.
  public init(text: Data) throws(Problem) {
    let object: JSONValue
    do {
      object = try JSONValue.read(text)
    } catch {
      throw Problem(message: "a /live message is not valid JSON: \(error.description)")
    }
    guard case .object = object else {
      throw Problem(message: "a /live message must be a JSON object with a \"type\"")
    }
    switch object["type"]?.string {
    case "state":
      guard let state = object["state"], case .object = state else {
        throw Problem(message: "a \"state\" message needs a \"state\" object of control keys")
      }
      self = .state(members: state, seq: Self.sequence(object))
    case "decoded":
      self = .decoded
    case "shown":
      self = .shown(latencyMs: object["latencyMs"]?.number)
    case "press":
      guard let phase = object["phase"]?.string, let kind = object["kind"]?.string else {
        throw Problem(message: "a \"press\" message needs a \"phase\" and a \"kind\" (strings)")
      }
      self = .press(phase: phase, kind: kind)
    case "choose":
      guard let control = object["control"]?.string else {
        throw Problem(message: "a \"choose\" message needs a \"control\" name (a string)")
      }
      self = .choose(control: control)
    case "slide":
      guard let control = object["control"]?.string, let value = object["value"]?.number,
        value.isFinite
      else {
        throw Problem(
          message:
            "a \"slide\" message needs a \"control\" name (a string) and a \"value\" (a number)")
      }
      self = .slide(control: control, value: value, seq: Self.sequence(object))
    case "view":
      self = try Self.view(object)
    default:
      throw Problem(
        message:
          "a /live message's \"type\" must be \"state\", \"slide\", \"decoded\", \"shown\", "
          + "\"press\", \"choose\" or \"view\"")
    }
  }

  /// The page's sequence number `seq`, cut toward zero; nil when it is missing, no number or beyond
  /// an `Int`.
  private static func sequence(_ object: JSONValue) -> Int? {
    object["seq"]?.number.flatMap { Int(exactly: $0.rounded(.towardZero)) }
  }

  /// Reads a `view` message's `width` and `height` (whole numbers from 1 to ``largestViewSide``) and
  /// its optional `format`.
  private static func view(_ object: JSONValue) throws(Problem) -> LiveMessage {
    func side(_ key: String) -> Int? {
      guard let number = object[key]?.number, let value = Int(exactly: number),
        (1...largestViewSide).contains(value)
      else { return nil }
      return value
    }
    guard let width = side("width"), let height = side("height") else {
      throw Problem(
        message:
          "a \"view\" message needs a \"width\" and a \"height\": whole numbers of device pixels "
          + "from 1 to \(largestViewSide)")
    }
    let format = object["format"] ?? .string("jpeg")
    guard let format = format.string, ["rgba", "jpeg"].contains(format) else {
      throw Problem(message: "a \"view\" message's \"format\" must be \"rgba\" or \"jpeg\"")
    }
    return .view(width: width, height: height, rawFrames: format == "rgba")
  }
}
