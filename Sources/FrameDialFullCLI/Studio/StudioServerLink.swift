import FrameDialCLI
import Studio
import Synchronization

/// The studio server as seen from the session, which is made before it: what the session reports before
/// the server is attached is dropped (the page gets the whole state when it connects).
final class StudioServerLink: Sendable {
  private let server = Mutex<StudioServer?>(nil)

  /// Attaches the running server.
  func attach(_ running: StudioServer) {
    server.withLock { $0 = running }
  }

  /// Tells the pages the overlay changed by itself.
  func overlayChanged() {
    server.withLock { $0 }?.overlayChanged()
  }
}
