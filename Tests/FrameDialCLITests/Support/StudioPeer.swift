import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a hostile peer of `framedial studio` needs beyond ``StudioClient``: the server process's open
/// descriptors, memory and CPU time read from `/proc`, keep-alive requests, and a WebSocket spoken byte
/// by byte (so a test can send what no library would: endless fragments, a flood of pings, and never
/// read what comes back).
enum StudioPeer {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The number of descriptors `pid` holds open.
  static func openDescriptors(of pid: pid_t) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
  }

  /// The number of sockets `pid` holds open (its listening socket and its connections).
  static func openSockets(of pid: pid_t) -> Int {
    let folder = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter {
      ((try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) ?? "")
        .hasPrefix("socket:")
    }.count
  }

  /// `pid`'s resident memory in bytes (VmRSS).
  static func residentBytes(of pid: pid_t) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kib * 1024
  }

  /// The CPU time `pid` has used (user + system), in clock ticks.
  static func cpuTicks(of pid: pid_t) -> Int {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    // Fields after the command name in parentheses, which may hold spaces: utime and stime are the
    // 14th and 15th fields of the line, the 12th and 13th after ')'.
    guard let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return 0
    }
    return user + system
  }

  /// Waits up to `seconds` for `condition`, checking every 100 ms; returns its last value.
  static func eventually(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let end = Date(timeIntervalSinceNow: seconds)
    while !condition() {
      if Date() >= end { return false }
      usleep(100_000)
    }
    return true
  }

  /// Sends one keep-alive request (no `Connection: close`) on `socket` and reads its response head and
  /// body (by `Content-Length`); returns the status.
  static func keepAliveRequest(
    _ path: String, on socket: Int32, host: String, headers: [String: String] = [:]
  ) throws -> Int {
    var head = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    try StudioClient.write(Data((head + "\r\n").utf8), to: socket)
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      if let split = received.range(of: Data("\r\n\r\n".utf8)) {
        let text = String(decoding: received[..<split.lowerBound], as: UTF8.self).lowercased()
        let length =
          text.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap {
            Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
          }
          ?? 0
        if received.count >= split.upperBound + length {
          return Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
      }
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { throw Failure(description: "the server closed before answering") }
      received.append(contentsOf: buffer[0..<count])
    }
  }

  /// Opens `/live` on a fresh connection with a hand-written handshake and returns the socket once the
  /// server answered 101; `receiveBuffer` (bytes) shrinks the socket's receive buffer first, for a
  /// client that reads nothing.
  static func openLive(
    _ studio: StudioClient, path: String = "/live", receiveBuffer: Int32? = nil,
    headers: [String: String] = [:]
  ) throws -> Int32 {
    let socket = try studio.connect()
    if var size = receiveBuffer {
      setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var head =
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(studio.port)\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      + "Origin: http://127.0.0.1:\(studio.port)\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    try StudioClient.write(Data((head + "\r\n").utf8), to: socket)
    // Read the answer's head byte by byte, leaving any message after it unread.
    var answer = Data()
    var byte: UInt8 = 0
    while !answer.hasSuffix(Data("\r\n\r\n".utf8)) {
      guard recv(socket, &byte, 1, 0) == 1 else {
        close(socket)
        throw Failure(description: "no handshake answer; got \(answer.count) bytes")
      }
      answer.append(byte)
    }
    guard String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
      close(socket)
      throw Failure(description: "handshake refused: \(String(decoding: answer, as: UTF8.self))")
    }
    return socket
  }

  /// One client frame: `opcode` (1 text, 0 continuation, 9 ping), `fin`, the payload masked with a
  /// fixed key (clients must mask).
  static func frame(opcode: UInt8, fin: Bool = true, payload: Data) -> Data {
    var frame = Data([(fin ? 0x80 : 0) | opcode])
    let count = payload.count
    if count < 126 {
      frame.append(0x80 | UInt8(count))
    } else if count <= 0xFFFF {
      frame.append(contentsOf: [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)])
    } else {
      frame.append(0x80 | 127)
      for shift in stride(from: 56, through: 0, by: -8) {
        frame.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF))
      }
    }
    let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    frame.append(contentsOf: key)
    frame.append(contentsOf: payload.enumerated().map { $0.element ^ key[$0.offset % 4] })
    return frame
  }

  /// Writes all of `data` unless the server stops taking it (closed, or not reading for `seconds`);
  /// true when all of it was written.
  static func writeUnlessRefused(_ data: Data, to socket: Int32, seconds: Int = 5) -> Bool {
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    return data.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return true }
      var offset = 0
      while offset < raw.count {
        let written = send(socket, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        guard written > 0 else { return false }
        offset += written
      }
      return true
    }
  }

  /// Reads what the server sends until it closes the connection or `seconds` pass; returns the bytes.
  static func readUntilClosed(_ socket: Int32, seconds: Int = 10) -> (data: Data, closed: Bool) {
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(socket, &buffer, buffer.count, 0)
      if count == 0 { return (received, true) }
      if count < 0 { return (received, errno == ECONNRESET) }
      received.append(contentsOf: buffer[0..<count])
    }
  }
}

extension StudioPeer {
  /// The frames the server sent in `data` (unmasked, as a server sends them), as opcode and payload; a
  /// frame cut off at the end is left out.
  static func serverFrames(_ data: Data) -> [(opcode: UInt8, payload: Data)] {
    let bytes = [UInt8](data)
    var frames: [(UInt8, Data)] = []
    var at = 0
    while at + 2 <= bytes.count {
      var length = Int(bytes[at + 1] & 0x7F)
      var start = at + 2
      if length == 126 {
        guard start + 2 <= bytes.count else { break }
        length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
        start += 2
      } else if length == 127 {
        guard start + 8 <= bytes.count else { break }
        length = bytes[start..<(start + 8)].reduce(0) { $0 << 8 | Int($1) }
        start += 8
      }
      guard start + length <= bytes.count else { break }
      frames.append((bytes[at] & 0x0F, Data(bytes[start..<(start + length)])))
      at = start + length
    }
    return frames
  }

  /// The close code and reason of the first close frame among `frames`, nil when there is none.
  static func closeFrame(in frames: [(opcode: UInt8, payload: Data)]) -> (
    code: Int, reason: String
  )? {
    guard let close = frames.first(where: { $0.opcode == 0x8 }), close.payload.count >= 2 else {
      return nil
    }
    let payload = [UInt8](close.payload)
    return (Int(payload[0]) << 8 | Int(payload[1]), String(decoding: payload[2...], as: UTF8.self))
  }
}

extension Data {
  fileprivate func hasSuffix(_ suffix: Data) -> Bool {
    count >= suffix.count && self[(endIndex - suffix.count)...] == suffix
  }
}
