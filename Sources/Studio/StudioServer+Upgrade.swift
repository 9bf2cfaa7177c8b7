import CSoup
import Foundation
import JSON

extension StudioServer {
  /// The most control frames (pings) a page may send within a second; a browser sends none of its own.
  static let controlFramesPerSecond = 64

  /// Answers a `GET /live` that passed the checks: the WebSocket handshake, made here rather than by
  /// libsoup's WebSocket handler so the connection's incoming bytes go through a
  /// ``WebSocketFrameGuard`` (a message is capped as it arrives, fragments counted together, and a
  /// flood of pings is refused) and the server sees its socket (a page that does not read is sent
  /// nothing more, see ``LiveConnection``).
  func upgrade(_ message: ServerMessage) {
    guard
      soup_websocket_server_process_handshake(message.pointer, nil, nil, nil, nil) != 0
    else {
      let status = soup_server_message_get_status(message.pointer)
      return message.respondError(
        status == 0 ? 400 : status, "GET /live takes a WebSocket handshake (Upgrade: websocket)")
    }
    let request = UpgradeRequest(
      server: self, loopback: message.peerIsLoopback, origin: message.header("Origin"))
    // Released with the message's signal handlers, when libsoup lets the message go.
    _ = fd_server_message_on_wrote_informational(
      message.pointer,
      { pointer, data in
        guard let pointer, let data else { return }
        let request = Unmanaged<UpgradeRequest>.fromOpaque(data).takeUnretainedValue()
        request.server.upgraded(pointer, loopback: request.loopback, origin: request.origin)
      }, Unmanaged.passRetained(request).toOpaque(),
      { data, _ in data.map { Unmanaged<UpgradeRequest>.fromOpaque($0).release() } })
  }

  /// The 101 answer is out: the connection becomes the page's WebSocket.
  private func upgraded(_ pointer: OpaquePointer, loopback: Bool, origin: String?) {
    g_object_ref(UnsafeMutableRawPointer(pointer))
    defer { g_object_unref(UnsafeMutableRawPointer(pointer)) }
    guard let uri = soup_server_message_get_uri(pointer),
      let base = soup_server_message_steal_connection(pointer)
    else { return }
    let frameGuard = FrameGuardBox(
      WebSocketFrameGuard(
        messageLimit: Self.messageLimit, controlFramesPerSecond: Self.controlFramesPerSecond))
    let stream = fd_guarded_stream(
      base,
      { input, length, output, data in
        guard let input, let output, let data else { return 0 }
        return gsize(
          Unmanaged<FrameGuardBox>.fromOpaque(data).takeUnretainedValue().take(
            UnsafeRawBufferPointer(start: input, count: Int(length)),
            into: UnsafeMutableRawBufferPointer(start: output, count: Int(length) + 14)))
      }, Unmanaged.passRetained(frameGuard).toOpaque(),
      { data in data.map { Unmanaged<FrameGuardBox>.fromOpaque($0).release() } })
    guard let stream,
      let websocket = soup_websocket_connection_new(
        stream, uri, SOUP_WEBSOCKET_CONNECTION_SERVER, origin, nil, nil)
    else {
      g_io_stream_close(base, nil, nil)
      g_object_unref(UnsafeMutableRawPointer(base))
      return
    }
    g_object_unref(UnsafeMutableRawPointer(stream))
    let connection = LiveConnection(
      websocket, base: base, loopback: loopback, frameGuard: frameGuard)
    frameGuard.refused = { [weak self, weak connection] refusal in
      // Not inside libsoup's read: the close goes out at the loop's next turn.
      self?.loop.later {
        guard let self, let connection else { return }
        self.refuse(refusal, on: connection)
      }
    }
    connected(connection)
  }

  /// Tells the page why and closes its connection.
  private func refuse(_ refusal: WebSocketFrameGuard.Refusal, on connection: LiveConnection) {
    let (code, reason): (LiveConnection.CloseCode, String) =
      switch refusal {
      case .tooBig(let reason): (.tooBig, reason)
      case .tooManyControlFrames(let reason): (.policyViolation, reason)
      }
    if connection.canSend {
      connection.sendText(
        JSONText.object(["type": .string("error"), "message": .string(reason)]))
    }
    connection.close(code: code, reason: reason)
  }
}

/// What the handshake's answer carries to the upgrade, once libsoup has written it.
private final class UpgradeRequest {
  let server: StudioServer
  let loopback: Bool
  let origin: String?

  init(server: StudioServer, loopback: Bool, origin: String?) {
    self.server = server
    self.loopback = loopback
    self.origin = origin
  }
}

/// A ``WebSocketFrameGuard`` shared between the event loop and the converter libsoup reads through
/// (both on the loop's thread), and what to do on its first refusal.
final class FrameGuardBox: @unchecked Sendable {
  // `@unchecked Sendable`: touched on the event-loop thread only (the converter runs inside libsoup's
  // reads there); it crosses into `later` only to be read there again.
  private var frameGuard: WebSocketFrameGuard
  /// Runs once, with the first refusal.
  var refused: ((WebSocketFrameGuard.Refusal) -> Void)?

  init(_ frameGuard: WebSocketFrameGuard) {
    self.frameGuard = frameGuard
  }

  /// Passes the page's bytes through the guard (see ``WebSocketFrameGuard/take(_:into:now:)``).
  func take(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
    let before = frameGuard.refusal
    let written = frameGuard.take(input, into: output)
    if before == nil, let refusal = frameGuard.refusal {
      refused?(refusal)
      refused = nil
    }
    return written
  }
}
