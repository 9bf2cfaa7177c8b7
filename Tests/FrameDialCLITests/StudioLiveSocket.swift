import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The plainest WebSocket client for `/live` (RFC 6455): the upgrade request, unmasked frames from the
/// server read whole (no fragments: the server sends none), masked text frames to it.
final class StudioLiveSocket {
  /// One message from the server.
  enum Message {
    case text(String)
    case binary(Data)
  }

  private let socket: Int32
  private var received = Data()

  /// Connects to `studio`'s `/live` and completes the handshake.
  init(_ studio: StudioClient) throws {
    socket = try studio.connect()
    let request =
      "GET /live HTTP/1.1\r\nHost: 127.0.0.1:\(studio.port)\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    try StudioClient.write(Data(request.utf8), to: socket)
    while received.range(of: Data("\r\n\r\n".utf8)) == nil {
      guard try fill(timeout: 10) else { throw StudioClient.Failure(description: "no handshake") }
    }
    guard let end = received.range(of: Data("\r\n\r\n".utf8)) else {
      throw StudioClient.Failure(description: "no handshake")
    }
    let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
    received = Data(received[end.upperBound...])
    guard head.hasPrefix("HTTP/1.1 101") else {
      throw StudioClient.Failure(description: "no upgrade: \(head)")
    }
  }

  deinit { close(socket) }

  /// Reads more bytes, waiting at most `timeout` seconds; false when none came.
  private func fill(timeout: Double) throws -> Bool {
    var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = recv(socket, &buffer, buffer.count, 0)
    guard count > 0 else { throw StudioClient.Failure(description: "connection closed") }
    received.append(contentsOf: buffer[0..<count])
    return true
  }

  /// The next message, or nil when none is complete within `timeout` seconds.
  func next(timeout: Double) throws -> Message? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let message = try take() { return message }
      let left = deadline.timeIntervalSinceNow
      guard left > 0, try fill(timeout: left) else { return nil }
    }
  }

  /// The next binary message (text messages before it are read and dropped), or nil on a timeout.
  func nextBinary(timeout: Double) throws -> Data? {
    let deadline = Date().addingTimeInterval(timeout)
    while let message = try next(timeout: max(0, deadline.timeIntervalSinceNow)) {
      if case .binary(let data) = message { return data }
    }
    return nil
  }

  /// A whole message from the bytes received, if there is one.
  private func take() throws -> Message? {
    let bytes = [UInt8](received)
    guard bytes.count >= 2 else { return nil }
    let opcode = bytes[0] & 0x0F
    var length = Int(bytes[1] & 0x7F)
    var offset = 2
    if length == 126 {
      guard bytes.count >= 4 else { return nil }
      length = Int(bytes[2]) << 8 | Int(bytes[3])
      offset = 4
    } else if length == 127 {
      guard bytes.count >= 10 else { return nil }
      length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
      offset = 10
    }
    guard bytes.count >= offset + length else { return nil }
    let payload = Data(bytes[offset..<offset + length])
    received = Data(bytes[(offset + length)...])
    switch opcode {
    case 1: return .text(String(decoding: payload, as: UTF8.self))
    case 2: return .binary(payload)
    default: throw StudioClient.Failure(description: "unexpected opcode \(opcode)")
    }
  }

  /// Sends `text` as one masked text frame.
  func send(_ text: String) throws {
    let payload = [UInt8](text.utf8)
    guard payload.count < 126 else {
      throw StudioClient.Failure(description: "only short messages are sent")
    }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    let masked = payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try StudioClient.write(
      Data([0x81, 0x80 | UInt8(payload.count)] + mask + masked), to: socket)
  }
}
