import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The plainest WebSocket client for a test: the handshake on a raw TCP connection to a
/// `StudioClient`'s server, masked text frames out, unmasked frames in (RFC 6455), and a receive timeout
/// so a missing answer fails the test instead of hanging it.
final class StudioSocket {
  /// One message (or control frame) from the server.
  struct Frame {
    /// 1 text, 2 binary, 8 close, 9 ping, 10 pong.
    var opcode: UInt8
    var payload: Data
    var text: String { String(decoding: payload, as: UTF8.self) }
    /// A close frame's status code.
    var closeCode: Int? {
      guard opcode == 8, payload.count >= 2 else { return nil }
      return Int(payload[payload.startIndex]) << 8 | Int(payload[payload.startIndex + 1])
    }
    /// A close frame's reason.
    var closeReason: String { String(decoding: payload.dropFirst(2), as: UTF8.self) }
  }

  private let socket: Int32
  private var buffer = Data()

  /// Opens `/live` with the page's own `Origin`.
  init(_ client: StudioClient) throws {
    socket = try client.connect()
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let head =
      "GET /live HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\n"
      + "Origin: http://127.0.0.1:\(client.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    try StudioClient.write(Data(head.utf8), to: socket)
    while buffer.range(of: Data("\r\n\r\n".utf8)) == nil { try fill() }
    guard let end = buffer.range(of: Data("\r\n\r\n".utf8)) else {
      throw StudioClient.Failure(description: "no response head")
    }
    let response = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
    buffer = Data(buffer[end.upperBound...])
    guard response.hasPrefix("HTTP/1.1 101") else {
      close(socket)
      throw StudioClient.Failure(description: "no WebSocket upgrade: \(response)")
    }
  }

  deinit { close(socket) }

  /// Sends one text message (masked, as every client frame must be).
  func send(_ text: String) throws {
    let payload = Array(text.utf8)
    var frame: [UInt8] = [0x81]
    switch payload.count {
    case ..<126: frame.append(0x80 | UInt8(payload.count))
    case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default:
      frame.append(0x80 | 127)
      frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
    }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try StudioClient.write(Data(frame), to: socket)
  }

  /// The next frame from the server.
  func receive() throws -> Frame {
    while true {
      let bytes = [UInt8](buffer)
      if bytes.count >= 2 {
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126, bytes.count >= 4 {
          length = Int(bytes[2]) << 8 | Int(bytes[3])
          offset = 4
        } else if length == 127, bytes.count >= 10 {
          length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
          offset = 10
        }
        if length < 126 || offset > 2, bytes.count >= offset + length {
          buffer = Data(bytes[(offset + length)...])
          return Frame(opcode: bytes[0] & 0x0F, payload: Data(bytes[offset..<(offset + length)]))
        }
      }
      try fill()
    }
  }

  /// Text messages parsed as JSON objects until one satisfies `wanted`, which is returned; binary
  /// frames are skipped.
  func receiveJSON(until wanted: ([String: Any]) -> Bool) throws -> [String: Any] {
    while true {
      let frame = try receive()
      guard frame.opcode == 1 else {
        if frame.opcode == 8 {
          throw StudioClient.Failure(description: "closed: \(frame.closeReason)")
        }
        continue
      }
      if let object = try JSONSerialization.jsonObject(with: frame.payload) as? [String: Any],
        wanted(object)
      {
        return object
      }
    }
  }

  /// The next frame the server sends: its `frame` text message and the JPEG (the binary message
  /// after it); other messages before it are skipped.
  func receiveFrame() throws -> (message: [String: Any], jpeg: Data) {
    let message = try receiveJSON { $0["type"] as? String == "frame" }
    let jpeg = try receive()
    guard jpeg.opcode == 2 else {
      throw StudioClient.Failure(
        description: "a frame message not followed by a JPEG: \(jpeg.text)")
    }
    return (message, jpeg.payload)
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = recv(socket, &chunk, chunk.count, 0)
    guard count > 0 else {
      throw StudioClient.Failure(
        description: "the connection ended (recv \(count), errno \(errno))")
    }
    buffer.append(contentsOf: chunk[0..<count])
  }
}
