import CSoup
import Foundation

/// One page connected to `/live` (libsoup's `SoupWebsocketConnection`, one reference held), used on the
/// event-loop thread only.
///
/// Frames follow "latest wins": a frame is sent only once the page said the previous one is decoded;
/// meanwhile newer frames replace each other on the server, so the page never works through a queue of
/// stale ones (it decodes one while the one before waits for its animation frame, and draws the newest).
///
/// Nothing is handed to libsoup for a page whose socket cannot take more (libsoup would queue it without
/// bound for a page that never reads): the frame waits (the newest replaces it), as does the newest
/// state message, until the socket drains (``whenWritable(_:)``); a page that stays behind is dropped
/// by the server (``behindSince``).
final class LiveConnection {
  let pointer: OpaquePointer
  /// The page is on this machine (its address is a loopback one).
  let loopback: Bool
  /// The connection libsoup's WebSocket runs on (one reference held), closed with it.
  private let base: UnsafeMutablePointer<GIOStream>?
  /// Its socket (owned by `base`), nil when it has none.
  private let socket: UnsafeMutablePointer<GSocket>?
  /// The check of the page's incoming frames (``WebSocketFrameGuard``).
  let frameGuard: FrameGuardBox?
  /// A state message is owed to the page: one was broadcast while its socket was full.
  var stateOwed = false
  /// Since when the page's socket has been full (nil while it takes more).
  var behindSince: ContinuousClock.Instant?
  /// The watch for the socket to drain, while one is set.
  private var watch: UnsafeMutablePointer<GSource>?
  /// The page takes frames as raw RGBA (it asked, and it is on this machine); else as JPEG.
  var rawFrames = false
  /// A frame was sent and the page has not yet said it is decoded.
  var awaitingDecoded = false
  /// The generation of the last frame sent.
  var sentGeneration: UInt64?
  /// The number of the last frame sent (``StudioFrame/number``).
  var sentFrame: UInt64?
  /// The page's state changes not yet shown in a frame sent: its sequence number and the generation the
  /// change produced.
  var changes: [(seq: Int, generation: UInt64)] = []

  /// Takes over one reference to `pointer` and to `base` (the stream it runs on, when the server made
  /// it), a connection from this machine when `loopback`, whose incoming frames `frameGuard` checks.
  init(
    _ pointer: OpaquePointer, base: UnsafeMutablePointer<GIOStream>? = nil, loopback: Bool,
    frameGuard: FrameGuardBox? = nil
  ) {
    self.pointer = pointer
    self.base = base
    self.loopback = loopback
    self.frameGuard = frameGuard
    socket = base.flatMap { fd_stream_socket($0) }
  }

  deinit {
    stopWatching()
    g_object_unref(UnsafeMutableRawPointer(pointer))
    if let base {
      g_io_stream_close(base, nil, nil)
      g_object_unref(UnsafeMutableRawPointer(base))
    }
  }

  /// True while the page's socket takes more bytes now (always, with no socket to ask).
  var canSend: Bool {
    guard let socket else { return true }
    return g_socket_condition_check(socket, G_IO_OUT).rawValue & G_IO_OUT.rawValue != 0
  }

  /// Runs `ready` once, on the event loop, when the page's socket takes more bytes (at once when it
  /// does now); a newer call replaces the one waiting.
  func whenWritable(_ ready: @escaping () -> Void) {
    guard let socket, !canSend else { return ready() }
    stopWatching()
    let box = Unmanaged.passRetained(ReadyBox(ready)).toOpaque()
    watch = fd_socket_watch(
      socket, G_IO_OUT,
      { _, _, data in
        guard let data else { return 0 }
        Unmanaged<ReadyBox>.fromOpaque(data).takeUnretainedValue().ready()
        return 0  // G_SOURCE_REMOVE
      }, box, { data in data.map { Unmanaged<ReadyBox>.fromOpaque($0).release() } })
  }

  private func stopWatching() {
    guard let watch else { return }
    g_source_destroy(watch)
    g_source_unref(watch)
    self.watch = nil
  }

  /// Closes the connection under the WebSocket at once (a page that never reads gets no close frame:
  /// it would wait behind what it does not read).
  func drop() {
    if let base { g_io_stream_close(base, nil, nil) }
  }

  private final class ReadyBox {
    let ready: () -> Void
    init(_ ready: @escaping () -> Void) { self.ready = ready }
  }

  /// The key the server files the connection under.
  var key: Int { Int(bitPattern: UnsafeRawPointer(pointer)) }

  /// True while messages can be sent.
  var isOpen: Bool {
    soup_websocket_connection_get_state(pointer) == SOUP_WEBSOCKET_STATE_OPEN
  }

  /// Sends a text message (JSON).
  func sendText(_ data: Data) {
    guard isOpen else { return }
    let text = String(decoding: data, as: UTF8.self)
    soup_websocket_connection_send_text(pointer, text)
  }

  /// Sends a binary message (a frame); libsoup copies the bytes.
  func sendBinary(_ data: Data) {
    guard isOpen else { return }
    data.withUnsafeBytes { bytes in
      soup_websocket_connection_send_binary(pointer, bytes.baseAddress, gsize(bytes.count))
    }
  }

  /// The sequence number of the newest change a frame of `generation` shows (nil when none), forgetting
  /// the changes it shows.
  func takeChanges(shownBy generation: UInt64) -> Int? {
    let shown = changes.filter { $0.generation <= generation }
    changes.removeAll { $0.generation <= generation }
    return shown.map(\.seq).max()
  }

  /// Why the server closes a connection (the WebSocket close codes it sends).
  enum CloseCode {
    /// 1001: the server stops.
    case goingAway
    /// 1009: a message was larger than the server takes.
    case tooBig
    /// 1008: the page broke a rule of the server's (too many pings).
    case policyViolation

    var value: UInt16 {
      switch self {
      case .goingAway: UInt16(SOUP_WEBSOCKET_CLOSE_GOING_AWAY.rawValue)
      case .tooBig: UInt16(SOUP_WEBSOCKET_CLOSE_TOO_BIG.rawValue)
      case .policyViolation: UInt16(SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION.rawValue)
      }
    }
  }

  /// Starts closing the connection with `code` ("going away" by default) and a reason for the page.
  func close(code: CloseCode = .goingAway, reason: String? = nil) {
    guard isOpen else { return }
    soup_websocket_connection_close(pointer, code.value, reason)
  }
}
