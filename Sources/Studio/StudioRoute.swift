/// The fixed set of paths the studio serves and the methods each takes; every other path is 404, every
/// other method 405. Paths are matched whole and as sent (never percent-decoded or joined to a folder),
/// so `/../x` or `/%2e%2e/x` can only ever be "not found".
public enum StudioRoute: String, Sendable, CaseIterable {
  /// `GET /`: the page.
  case page = "/"
  /// `GET /studio.js`: the page's script.
  case script = "/studio.js"
  /// `GET /studio.css`: the page's style sheet.
  case styleSheet = "/studio.css"
  /// `GET /studio.json`: what the page draws (device screen, viewfinder, controls).
  case pageConfiguration = "/studio.json"
  /// `GET /state` and `POST /state`: the control state as JSON.
  case state = "/state"
  /// `GET /frame.jpg`: the current processed frame.
  case frame = "/frame.jpg"
  /// `GET /stats`: the latency the page measured.
  case stats = "/stats"
  /// `GET /live` with a WebSocket upgrade: state changes in, frames out.
  case live = "/live"
  /// `GET /capture.jpg`: the original image at full size with the current state (a download).
  case capture = "/capture.jpg"
  /// `GET /look.cube`: the look of the current state as a 3D LUT (a download).
  case look = "/look.cube"
  /// `GET /record` and `POST /record`: whether a gesture recording runs; a POST starts or stops one.
  case record = "/record"
  /// `GET /timeline.jsonl`: the recorded gestures as a timeline (a download).
  case timeline = "/timeline.jsonl"

  /// What a request comes to before any handler runs.
  public enum Resolution: Sendable, Equatable {
    /// A known path with a method it takes.
    case route(StudioRoute, isPost: Bool)
    /// No such path: 404.
    case notFound
    /// A known path, another method: 405 with the methods it takes (for `Allow`).
    case methodNotAllowed(allowed: String)
  }

  /// True for the page and its script and style sheet: fixed files that any page may load (a link to
  /// the studio from elsewhere opens it), where every other route answers only the page itself.
  public var isPageFile: Bool { self == .page || self == .script || self == .styleSheet }

  /// The methods the route takes.
  public var methods: [String] { self == .state || self == .record ? ["GET", "POST"] : ["GET"] }

  /// Resolves a request's method and path (the path as sent, query excluded).
  public static func resolve(method: String, path: String) -> Resolution {
    guard let route = StudioRoute(rawValue: path) else { return .notFound }
    guard route.methods.contains(method) else {
      return .methodNotAllowed(allowed: route.methods.joined(separator: ", "))
    }
    return .route(route, isPost: method == "POST")
  }
}
