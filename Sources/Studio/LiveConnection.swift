import CSoup
import Foundation

/// One page connected to `/live` (libsoup's `SoupWebsocketConnection`, one reference held), used on the
/// event-loop thread only.
///
/// Frames follow "latest wins": a frame is sent only once the page said the previous one is decoded;
/// meanwhile newer frames replace each other on the server, so the page never works through a queue of
/// stale ones (it decodes one while the one before waits for its animation frame, and draws the newest).
final class LiveConnection {
  let pointer: OpaquePointer
  /// The page is on this machine (its address is a loopback one).
  let loopback: Bool
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

  /// Takes over one reference to `pointer`, a connection from this machine when `loopback`.
  init(_ pointer: OpaquePointer, loopback: Bool) {
    self.pointer = pointer
    self.loopback = loopback
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(pointer))
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

    var value: UInt16 {
      switch self {
      case .goingAway: UInt16(SOUP_WEBSOCKET_CLOSE_GOING_AWAY.rawValue)
      case .tooBig: UInt16(SOUP_WEBSOCKET_CLOSE_TOO_BIG.rawValue)
      }
    }
  }

  /// Starts closing the connection with `code` ("going away" by default) and a reason for the page.
  func close(code: CloseCode = .goingAway, reason: String? = nil) {
    guard isOpen else { return }
    soup_websocket_connection_close(pointer, code.value, reason)
  }
}
