import FrameDialCLI
import Studio
import Synchronization

/// A stop request (Ctrl-C, SIGTERM) for `framedial studio`, which may come before the server exists:
/// the server is stopped as soon as both the request and the server are there.
final class StudioStop: Sendable {
  private let state = Mutex<(requested: Bool, server: StudioServer?)>((false, nil))

  /// Asks the server to stop (now, or as soon as it is attached).
  func request() {
    let server = state.withLock { state in
      state.requested = true
      return state.server
    }
    server?.stop()
  }

  /// Attaches the running server; stops it at once when a stop was already requested.
  func attach(_ server: StudioServer) {
    let requested = state.withLock { state in
      state.server = server
      return state.requested
    }
    if requested { server.stop() }
  }
}
