import CSoup
import Foundation
import JSON

/// One request and its response (libsoup's `SoupServerMessage`), used on the event-loop thread only.
struct ServerMessage {
  let pointer: OpaquePointer

  /// The request method ("GET").
  var method: String {
    soup_server_message_get_method(pointer).map { String(cString: $0) } ?? ""
  }

  /// A request header's value, nil when absent.
  func header(_ name: String) -> String? {
    guard let headers = soup_server_message_get_request_headers(pointer),
      let value = soup_message_headers_get_one(headers, name)
    else { return nil }
    return String(cString: value)
  }

  /// True when the request came from this machine (a loopback IP address).
  var peerIsLoopback: Bool {
    guard let address = soup_server_message_get_remote_address(pointer) else { return false }
    let family = g_socket_address_get_family(address)
    guard family == G_SOCKET_FAMILY_IPV4 || family == G_SOCKET_FAMILY_IPV6 else { return false }
    let inet = UnsafeMutableRawPointer(address).assumingMemoryBound(to: GInetSocketAddress.self)
    guard let ip = g_inet_socket_address_get_address(inet) else { return false }
    return g_inet_address_get_is_loopback(ip) != 0
  }

  /// The request body.
  var body: Data {
    guard let body = soup_server_message_get_request_body(pointer),
      let bytes = soup_message_body_flatten(body)
    else { return Data() }
    defer { g_bytes_unref(bytes) }
    var size: gsize = 0
    guard let data = g_bytes_get_data(bytes, &size), size > 0 else { return Data() }
    return Data(bytes: data, count: Int(size))
  }

  /// Sets a response header.
  func setHeader(_ name: String, _ value: String) {
    guard let headers = soup_server_message_get_response_headers(pointer) else { return }
    soup_message_headers_replace(headers, name, value)
  }

  /// The request's query (the part of the URL after `?`, as sent), nil when none.
  var query: String? {
    guard let uri = soup_server_message_get_uri(pointer), let query = g_uri_get_query(uri) else {
      return nil
    }
    return String(cString: query)
  }

  /// Sets the status and the body (copied), never cached by the browser.
  ///
  /// Every answer closes its connection (`Connection: close`): libsoup 3.2 never closes a kept-alive
  /// connection that the client closes while it waits for the next request (fixed in 3.3), so each
  /// one would cost the server a descriptor for good.
  func respond(_ status: UInt32, contentType: String, body: Data) {
    soup_server_message_set_status(pointer, status, nil)
    setHeader("Connection", "close")
    setHeader("Cache-Control", "no-store")
    setHeader("X-Content-Type-Options", "nosniff")
    body.withUnsafeBytes { bytes in
      soup_server_message_set_response(
        pointer, contentType, SOUP_MEMORY_COPY,
        bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gsize(bytes.count))
    }
  }

  /// Responds with a JSON body.
  func respondJSON(_ status: UInt32, _ body: Data) {
    respond(status, contentType: "application/json", body: body)
  }

  /// Responds with `{"error": message}`.
  func respondError(_ status: UInt32, _ message: String) {
    respondJSON(status, JSONText.object(["error": .string(message)]))
  }
}
