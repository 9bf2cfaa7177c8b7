/// Which requests the studio answers, against other web pages reaching a local server:
///
/// - Requests on every route but the page's own files (``StudioRoute/isPageFile``) that a browser marks
///   as sent by another site are refused: an `Origin` header other than the page's own (`http://` + the
///   `Host` the request was sent to), or `Sec-Fetch-Site` other than `same-origin` or `none` (a page
///   of another site, or of another port of the same host, loading `/capture.jpg` in an image or
///   `/look.cube` in a frame, sends `cross-site` or `same-site`; the user typing the URL, `none`).
///   Scripts such as curl send neither header and are let through.
/// - When the server listens on a loopback address, every request must name the server by a loopback
///   address or `localhost` with its port in `Host` (or without a port when it is 80, as browsers
///   write it): a page on another site cannot reach it by pointing its own host name at 127.0.0.1 (DNS
///   rebinding), since its requests then carry its own name.
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
    let names = ["127.0.0.1", "localhost", "[::1]"]
    return names.map { "\($0):\(port)" } + (port == 80 ? names : [])
  }

  /// The `Sec-Fetch-Site` values of requests the page or its user makes.
  public static let ownFetchSites = ["same-origin", "none"]

  /// Nil when the request may go on, else the reason it is refused (403).
  ///
  /// - Parameters:
  ///   - host: the `Host` header (nil when absent).
  ///   - origin: the `Origin` header (nil when absent).
  ///   - fetchSite: the `Sec-Fetch-Site` header (nil when absent).
  ///   - guarded: true for every route but the page's own files, whose requests must come from the
  ///     page itself (or a script).
  public func refusal(host: String?, origin: String?, fetchSite: String? = nil, guarded: Bool)
    -> String?
  {
    if loopbackOnly {
      guard let host, loopbackHosts.contains(host.lowercased()) else {
        return "the Host header must be one of \(loopbackHosts.joined(separator: ", "))"
      }
    }
    guard guarded else { return nil }
    if let fetchSite, !Self.ownFetchSites.contains(fetchSite.lowercased()) {
      return "a request from another site's page (Sec-Fetch-Site: \(fetchSite))"
    }
    guard let origin else { return nil }
    guard let host, origin.lowercased() == "http://" + host.lowercased() else {
      return "the Origin \(origin) is not this page's own (http://\(host ?? "HOST:PORT"))"
    }
    return nil
  }
}
