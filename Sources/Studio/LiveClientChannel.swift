import CSoup
import Foundation

/// The loop-thread side of a ``LiveClient``: libsoup's session, handshake message and WebSocket
/// connection (touched on the event-loop thread only), and what the connection brought in (guarded by
/// ``condition``, read by the client's callers).
final class LiveClientChannel: @unchecked Sendable {
  // `@unchecked Sendable`: the libsoup pointers are used on the loop thread only; the other state is
  // read and written with `condition` locked.

  /// Guards the state below and wakes the callers waiting for it.
  let condition = NSCondition()
  /// The handshake's outcome, nil while it runs.
  var connected: Result<Void, StudioError>?
  /// Messages received and not yet taken, oldest first.
  var messages: [LiveClient.Message] = []
  /// Set once the connection closed.
  var closed: LiveClient.Closed?
  /// The client is ending the loop.
  var stopping = false

  // Loop thread only.
  private var url = ""
  private var session: UnsafeMutablePointer<SoupSession>?
  private var handshake: OpaquePointer?
  private var connection: OpaquePointer?
  private var handlers: [gulong] = []
  private var tornDown = false

  /// Runs `body` with ``condition`` locked.
  func withLock<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  /// Sets the state with `body` and wakes the waiting callers.
  private func update(_ body: () -> Void) {
    withLock {
      body()
      condition.broadcast()
    }
  }

  /// Starts the handshake (on the loop thread, whose context is the thread default); false when it
  /// cannot start, with ``connected`` set to the failure.
  func connect(url: String, origin: String?, timeout: UInt32) -> Bool {
    self.url = url
    guard let session = soup_session_new() else {
      update { connected = .failure(StudioError("libsoup could not create a session")) }
      return false
    }
    self.session = session
    soup_session_set_timeout(session, timeout)
    guard let handshake = soup_message_new("GET", url) else {
      update {
        connected = .failure(
          StudioError("'\(url)' is not a WebSocket URL (for example ws://127.0.0.1:8080/live)"))
      }
      return false
    }
    self.handshake = handshake
    soup_session_websocket_connect_async(
      session, handshake, origin, nil, G_PRIORITY_DEFAULT, nil,
      { source, result, data in
        guard let data else { return }
        Unmanaged<LiveClientChannel>.fromOpaque(data).takeUnretainedValue()
          .finishConnecting(session: source, result: result)
      }, Unmanaged.passUnretained(self).toOpaque())
    return true
  }

  private func finishConnecting(session: UnsafeMutablePointer<GObject>?, result: OpaquePointer?) {
    var error: UnsafeMutablePointer<GError>?
    let opened = soup_session_websocket_connect_finish(
      UnsafeMutableRawPointer(session)?.assumingMemoryBound(to: SoupSession.self), result, &error)
    guard let opened else {
      let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      if let error { g_error_free(error) }
      var status = ""
      if let handshake, soup_message_get_status(handshake).rawValue >= 100 {
        let phrase = soup_message_get_reason_phrase(handshake).map { String(cString: $0) } ?? ""
        status = " (HTTP \(soup_message_get_status(handshake).rawValue) \(phrase))"
      }
      update { connected = .failure(StudioError("cannot open \(url): \(reason)\(status)")) }
      return
    }
    guard !tornDown else {
      g_object_unref(UnsafeMutableRawPointer(opened))
      return
    }
    connection = opened
    soup_websocket_connection_set_max_incoming_payload_size(
      opened, guint64(LiveClient.incomingLimit))
    let me = Unmanaged.passUnretained(self).toOpaque()
    handlers = [
      fd_websocket_on_message(
        opened,
        { _, type, bytes, data in
          guard let bytes, let data else { return }
          var size: gsize = 0
          let body =
            g_bytes_get_data(bytes, &size).map { Data(bytes: $0, count: Int(size)) } ?? Data()
          let message: LiveClient.Message =
            type == Int32(SOUP_WEBSOCKET_DATA_TEXT.rawValue)
            ? .text(String(decoding: body, as: UTF8.self)) : .binary(body)
          let channel = Unmanaged<LiveClientChannel>.fromOpaque(data).takeUnretainedValue()
          channel.update { channel.messages.append(message) }
        }, me),
      fd_websocket_on_closed(
        opened,
        { connection, data in
          guard let connection, let data else { return }
          let code = soup_websocket_connection_get_close_code(connection)
          let reason =
            soup_websocket_connection_get_close_data(connection).map { String(cString: $0) } ?? ""
          let channel = Unmanaged<LiveClientChannel>.fromOpaque(data).takeUnretainedValue()
          channel.update { channel.closed = LiveClient.Closed(code: code, reason: reason) }
        }, me),
    ]
    update { connected = .success(()) }
  }

  /// Sends a text message; false when the connection is not open.
  func sendText(_ text: String) -> Bool {
    guard let connection,
      soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN
    else { return false }
    soup_websocket_connection_send_text(connection, text)
    return true
  }

  /// Starts closing the connection with code 1000 when it is open.
  func close() {
    guard let connection,
      soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN
    else { return }
    soup_websocket_connection_close(
      connection, UInt16(SOUP_WEBSOCKET_CLOSE_NORMAL.rawValue), nil)
  }

  /// Lets go of the libsoup objects once the loop ended.
  func tearDown() {
    tornDown = true
    if let connection {
      for handler in handlers {
        g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), handler)
      }
      g_object_unref(UnsafeMutableRawPointer(connection))
    }
    connection = nil
    handlers = []
    if let handshake { g_object_unref(UnsafeMutableRawPointer(handshake)) }
    handshake = nil
    if let session {
      soup_session_abort(session)
      g_object_unref(UnsafeMutableRawPointer(session))
    }
    session = nil
  }
}
