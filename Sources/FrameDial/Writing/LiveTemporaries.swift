import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The temporary files ``AtomicFile`` is writing right now, and the folders it has cleared of stale
/// ones, for the whole process.
final class LiveTemporaries: Sendable {
  /// The process's registry.
  static let shared = LiveTemporaries()

  private struct State {
    var paths: Set<String> = []
    var visitedFolders: Set<String> = []
    var abandoned = false
  }

  private let state = Mutex(State())

  /// Lists `path` as being written; false (nothing listed) once the process is abandoning its files.
  func register(_ path: String) -> Bool {
    state.withLock { state in
      guard !state.abandoned else { return false }
      state.paths.insert(path)
      return true
    }
  }

  /// Takes `path` off the list (it was renamed into place or removed).
  func unregister(_ path: String) {
    _ = state.withLock { $0.paths.remove(path) }
  }

  /// True the first time `folder` is named, so it is cleared of stale temporaries only once.
  func firstVisit(_ folder: String) -> Bool {
    state.withLock { $0.visitedFolders.insert(folder).inserted }
  }

  /// Removes every listed file and refuses new ones from now on. The files stay listed: a second call
  /// removes any that a writer created again in between (libvips opens the path it was given).
  func abandon() {
    state.withLock { state in
      state.abandoned = true
      for path in state.paths { unlink(path) }
    }
  }
}
