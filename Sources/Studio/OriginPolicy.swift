/// Which requests the studio answers, against other web pages reaching a local server:
///
/// - POST and WebSocket requests that carry an `Origin` header are refused unless it is the page's own
///   origin, `http://` + the `Host` the request was sent to (a browser always sends `Origin` on those;
///   scripts such as curl send none and are let through).
/// - When the server listens on a loopback address, every request must name the server by a loopback
///   address or `localhost` with its port in `Host`: a page on another site cannot reach it by pointing its
///   own host name at 127.0.0.1 (DNS rebinding), since its requests then carry its own name.
public struct OriginPolicy: Sendable, Equatable {
  /// The port the server listens on.
  public var port: Int
  /// True when the server listens on a loopback address only.
  public var loopbackOnly: Bool

  /// Creates the policy for a server on `port`.
  public init(port: Int, loopbackOnly: Bool) {
    self.port = port
    self.loopbackOnly = loopbackOnly
  }

  /// The `Host` values a loopback server answers to.
  public var loopbackHosts: [String] {
    ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
  }

  /// Nil when the request may go on, else the reason it is refused (403).
  ///
  /// - Parameters:
  ///   - host: the `Host` header (nil when absent).
  ///   - origin: the `Origin` header (nil when absent).
  ///   - changesState: true for POST and WebSocket requests, whose `Origin` is checked.
  public func refusal(host: String?, origin: String?, changesState: Bool) -> String? {
    if loopbackOnly {
      guard let host, loopbackHosts.contains(host.lowercased()) else {
        return "the Host header must be one of \(loopbackHosts.joined(separator: ", "))"
      }
    }
    guard changesState, let origin else { return nil }
    guard let host, origin.lowercased() == "http://" + host.lowercased() else {
      return "the Origin \(origin) is not this page's own (http://\(host ?? "HOST:PORT"))"
    }
    return nil
  }
}
