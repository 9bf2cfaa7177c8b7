import Foundation
import Studio

#if canImport(Glibc)
  import Glibc
#endif

/// A `framedial studio --port 0` started for a test, and the plainest possible HTTP client for it: one
/// request per TCP connection (`Connection: close`), written byte for byte as given — so a test can send
/// paths such as `/../x` that URL libraries would tidy up, and any `Host` or `Origin` header.
final class StudioClient {
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let process: ShellStartedProcess
  let errors: URL
  /// The URL line the server printed.
  let url: String
  /// The port from that line.
  let port: UInt16
  /// The token from that line (`?token=…`), nil when it has none.
  let token: String?

  /// Starts the server with `arguments` after `studio --port 0`; returns once it printed its URL.
  init(_ arguments: [String] = []) throws {
    errors = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-studio-\(UUID().uuidString).err")
    let ends = try ShellStartedProcess.pipe()
    process = try ShellStartedProcess(
      ["studio", "--port", "0"] + arguments, output: ends.write, errors: errors.path)
    close(ends.write)
    defer { close(ends.read) }
    var line = [UInt8]()
    var byte: UInt8 = 0
    while read(ends.read, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
    url = String(decoding: line, as: UTF8.self)
    // http://HOST:PORT/, or http://HOST:PORT/?token=… (requests go to 127.0.0.1 all the same).
    let parts = url.split(separator: "/", omittingEmptySubsequences: false)
    let expectedHost = arguments.contains("--listen") ? "" : "127.0.0.1"
    guard url.hasPrefix("http://"), parts.count == 4, parts[2].hasPrefix(expectedHost),
      let colon = parts[2].lastIndex(of: ":"), let port = UInt16(parts[2][colon...].dropFirst()),
      parts[3].isEmpty || parts[3].hasPrefix("?token=")
    else {
      if process.isRunning { process.send(SIGKILL) }
      _ = process.wait()
      let errorText = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      throw Failure(description: "no URL line; got '\(url)'; errors: \(errorText)")
    }
    self.port = port
    token = parts[3].isEmpty ? nil : String(parts[3].dropFirst("?token=".count))
  }

  deinit {
    if process.isRunning {
      process.send(SIGKILL)
      _ = process.wait()
    }
    try? FileManager.default.removeItem(at: errors)
  }

  var standardError: String {
    (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
  }

  /// The server's `/live` WebSocket, opened with the page's own `Origin` as the page opens it.
  func live() throws -> LiveClient {
    try LiveClient(url: "ws://127.0.0.1:\(port)/live", origin: "http://127.0.0.1:\(port)")
  }

  /// A TCP connection to the server.
  func connect() throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw Failure(description: "connect: \(errno)")
    }
    return socket
  }

  /// Writes all of `data`.
  static func write(_ data: Data, to socket: Int32) throws {
    try data.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var offset = 0
      while offset < raw.count {
        let written = send(socket, base + offset, raw.count - offset, 0)
        guard written > 0 else { throw Failure(description: "send: \(errno)") }
        offset += written
      }
    }
  }

  /// Sends one request and reads the response to the end of the connection.
  func request(
    _ method: String, _ path: String, body: Data = Data(), headers: [String: String] = [:]
  ) throws -> Response {
    let socket = try connect()
    defer { close(socket) }
    var head = "\(method) \(path) HTTP/1.1\r\n"
    var fields = ["Host": "127.0.0.1:\(port)", "Connection": "close"]
    if method == "POST" { fields["Content-Length"] = "\(body.count)" }
    fields.merge(headers) { $1 }
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    try Self.write(Data((head + "\r\n").utf8) + body, to: socket)
    // Read to the end of the connection, or of the body when its length is given (a connection the
    // request asked to upgrade stays open after the answer).
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    var split: Range<Data.Index>?
    var expected: Int?
    while expected.map({ received.count < $0 }) ?? true {
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      received.append(contentsOf: buffer[0..<count])
      if split == nil, let found = received.range(of: Data("\r\n\r\n".utf8)) {
        split = found
        let head = String(decoding: received[..<found.lowerBound], as: UTF8.self).lowercased()
        if let line = head.components(separatedBy: "\r\n").first(where: {
          $0.hasPrefix("content-length:")
        }),
          let length = Int(
            line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        {
          expected = found.upperBound + length
        }
      }
    }
    guard let split else {
      throw Failure(description: "no response head in \(received.count) bytes")
    }
    let lines = String(decoding: received[..<split.lowerBound], as: UTF8.self)
      .components(separatedBy: "\r\n")
    let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
    var fieldsOut: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fieldsOut[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    return Response(status: status, headers: fieldsOut, body: Data(received[split.upperBound...]))
  }
}
