import CSoup
import Foundation
import JSON

extension StudioServer {
  /// Refuses, once its headers are read, a request whose body would be larger than ``messageLimit``
  /// (413) or whose size is not given (411: chunked), and stops libsoup from keeping its body, so a huge
  /// body costs no memory; the connection is closed after the answer.
  static func refuseLargeBody(_ pointer: OpaquePointer) {
    let message = ServerMessage(pointer: pointer)
    let length = message.header("Content-Length")
    let chunked = message.header("Transfer-Encoding") != nil
    let status: UInt32
    let reason: String
    if let length, let size = Int(length), !chunked {
      guard size > messageLimit else { return }
      status = 413
      reason = "a request body may be at most \(messageLimit / 1024) KiB, not \(size) bytes"
    } else if chunked {
      status = 411
      reason = "a request body must come with its Content-Length"
    } else {
      return  // no body
    }
    if let body = soup_server_message_get_request_body(pointer) {
      soup_message_body_set_accumulate(body, 0)
    }
    message.setHeader("Connection", "close")
    message.respondError(status, reason)
  }

  /// Answers `/capture.jpg`, `/look.cube`, `/record` and `/timeline.jsonl`.
  func respondExport(to message: ServerMessage, route: StudioRoute, isPost: Bool) {
    switch route {
    case .record:
      var start: Bool?
      if isPost {
        start = Self.recordingWanted(message.body)
        guard start != nil else {
          return message.respondError(
            400,
            "POST /record takes {\"recording\": true} (start) or {\"recording\": false} (stop)")
        }
      }
      let status = backend.record(start)
      message.respondJSON(
        200,
        JSONText.object([
          "recording": .bool(status.recording),
          "events": .integer(Int64(status.events)),
        ]))
    case .timeline:
      message.setHeader(
        "Content-Disposition", "attachment; filename=\"framedial-timeline.jsonl\"")
      message.respond(200, contentType: "application/jsonl", body: backend.timelineJSONLines())
    case .look:
      respond(
        to: message, with: backend.lookCube(), contentType: "text/plain; charset=utf-8",
        fileName: "framedial-look.cube")
    case .capture:
      // Rendering the full picture takes a while: the request waits, the loop goes on.
      g_object_ref(UnsafeMutableRawPointer(message.pointer))
      soup_server_message_pause(message.pointer)
      let paused = PausedMessage(pointer: message.pointer)
      backend.capture { [self] export in
        loop.invoke { [self] in
          let message = ServerMessage(pointer: paused.pointer)
          respond(
            to: message, with: export, contentType: "image/jpeg",
            fileName: "framedial-capture.jpg")
          soup_server_message_unpause(message.pointer)
          g_object_unref(UnsafeMutableRawPointer(message.pointer))
        }
      }
    default:
      message.respondError(404, "no such path: \(route.rawValue)")
    }
  }

  private func respond(
    to message: ServerMessage, with export: Export, contentType: String, fileName: String
  ) {
    switch export {
    case .file(let data):
      message.setHeader("Content-Disposition", "attachment; filename=\"\(fileName)\"")
      message.respond(200, contentType: contentType, body: data)
    case .refused(let reason):
      message.respondError(409, reason)
    case .failed(let reason):
      message.respondError(500, reason)
    }
  }

  /// `true` or `false` from `{"recording": Bool}`, nil for anything else.
  private static func recordingWanted(_ body: Data) -> Bool? {
    guard let object = try? JSONValue.read(body), object.members?.count == 1 else { return nil }
    return object["recording"]?.bool
  }
}

/// A paused request (one reference held) carried through another thread back to the event loop, where
/// alone it is used: hence `@unchecked Sendable`.
private struct PausedMessage: @unchecked Sendable {
  let pointer: OpaquePointer
}
