import Controls
import Foundation

/// A control state behind a `framedial_state *` handle.
final class StateHandle: HandleObject {
  static let kind = Handles.Kind.state
  let state: ControlState
  init(_ state: ControlState) { self.state = state }
}

extension StateHandle {
  /// The state of the JSON text `json` (a caller's NUL-terminated string), over the identity state.
  static func parse(_ json: UnsafePointer<CChar>?) throws -> ControlState {
    let text = try CString.read(json, "the state JSON")
    do {
      return try ControlState.identity.applying(json: Data(text.utf8))
    } catch {
      throw CallError(.invalidState, ControlStateError.inSource("state JSON", error).description)
    }
  }

  /// The state behind `handle`, or the identity state for NULL.
  static func state(_ handle: OpaquePointer?) throws -> ControlState {
    guard handle != nil else { return .identity }
    return try Handles.object(handle, as: StateHandle.self, "state").state
  }
}

/// `framedial_state_from_json`: a state handle from a JSON object of the state keys (docs/control-state.md).
@_cdecl("framedial_state_from_json")
public func cStateFromJSON(
  _ json: UnsafePointer<CChar>?, _ state: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error, into: state, named: "state") {
    try Handles.register(StateHandle(try StateHandle.parse(json)))
  }
}

/// `framedial_state_to_json`: every key of a state as a JSON object with sorted keys.
@_cdecl("framedial_state_to_json")
public func cStateToJSON(
  _ state: OpaquePointer?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error, into: json, named: "JSON") {
    let value = try Handles.object(state, as: StateHandle.self, "state").state
    return CString.copy(String(decoding: try value.jsonData(), as: UTF8.self))
  }
}

/// `framedial_state_free`: releases a state handle (NULL, freed and unknown pointers are ignored).
@_cdecl("framedial_state_free")
public func cStateFree(_ state: OpaquePointer?) {
  Handles.release(state, as: StateHandle.self)
}

/// `framedial_string_free`: frees a string FrameDial returned.
@_cdecl("framedial_string_free")
public func cStringFree(_ string: UnsafeMutablePointer<CChar>?) {
  free(string)
}
