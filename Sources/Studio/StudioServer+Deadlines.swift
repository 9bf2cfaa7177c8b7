import CSoup
import Foundation

extension StudioServer {
  /// How long a request may take to arrive whole, headers and body, from the moment its connection is
  /// open (or the last request on it answered): a connection that sends nothing, or trickles a request
  /// byte by byte, is closed after that.
  static let requestDeadline = Duration.seconds(10)
  /// How long a page's socket may stay full (the page takes nothing of what it was sent) before the
  /// server drops the page.
  static let behindDeadline = Duration.seconds(10)

  /// Follows every request from its first awaited byte to the end of its body, and checks the
  /// deadlines once a second.
  func watchRequests(_ server: UnsafeMutablePointer<SoupServer>) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    _ = fd_server_on(
      server, "request-started",
      { _, message, data in
        guard let message, let data else { return }
        Unmanaged<StudioServer>.fromOpaque(data).takeUnretainedValue().requestStarted(message)
      }, me)
    _ = fd_server_on(
      server, "request-read",
      { _, message, data in
        guard let message, let data else { return }
        Unmanaged<StudioServer>.fromOpaque(data).takeUnretainedValue().forget(message)
      }, me)
    sweeper = loop.every(seconds: 1) { [unowned self] in sweep(now: .now) }
  }

  /// Stops following requests (the server stops).
  func stopWatchingRequests() {
    if let sweeper {
      g_source_destroy(sweeper)
      g_source_unref(sweeper)
    }
    sweeper = nil
    for entry in reading.values { forget(entry.message) }
  }

  private func requestStarted(_ message: OpaquePointer) {
    // Forgotten when libsoup lets the message go before its request arrived (the peer left).
    g_object_weak_ref(object(message), Self.messageGone, Unmanaged.passUnretained(self).toOpaque())
    reading[Int(bitPattern: UnsafeRawPointer(message))] = (message, .now)
  }

  private func forget(_ message: OpaquePointer) {
    guard reading.removeValue(forKey: Int(bitPattern: UnsafeRawPointer(message))) != nil else {
      return
    }
    g_object_weak_unref(
      object(message), Self.messageGone, Unmanaged.passUnretained(self).toOpaque())
  }

  private static let messageGone: GWeakNotify = { data, object in
    guard let data, let object else { return }
    Unmanaged<StudioServer>.fromOpaque(data).takeUnretainedValue()
      .reading[Int(bitPattern: UnsafeRawPointer(object))] = nil
  }

  private func object(_ message: OpaquePointer) -> UnsafeMutablePointer<GObject> {
    UnsafeMutableRawPointer(message).assumingMemoryBound(to: GObject.self)
  }

  /// Closes the connections of requests past their deadline (shut down under libsoup, which then
  /// reads their end and lets them go) and drops the pages that stayed behind.
  private func sweep(now: ContinuousClock.Instant) {
    for entry in reading.values where now - entry.started > Self.requestDeadline {
      let socket = soup_server_message_get_socket(entry.message)
      forget(entry.message)
      if let socket { g_socket_shutdown(socket, 1, 1, nil) }
    }
    for connection in connections.values {
      guard !connection.canSend else {
        connection.behindSince = nil
        continue
      }
      let since = connection.behindSince ?? now
      connection.behindSince = since
      if now - since > Self.behindDeadline { connection.drop() }
    }
  }
}
