import CFrameKernels
import CVips
import Foundation
import Synchronization

/// libvips's optional format modules (HEIF, JPEG XL, PDF, ImageMagick, OpenSlide), loaded when a file
/// or an operation needs one instead of at start-up.
///
/// libvips loads every module in its `vips-modules-X.Y` folder when it starts, and with them their
/// libraries (libheif and its codecs, ImageMagick, poppler, …): about 16 ms of a 45 ms start-up on a
/// 2-core machine, paid by every run, a JPEG's included. FrameDial starts libvips with no modules and
/// loads them all, once, the first time something asks for what only a module has:
/// - an operation libvips does not know (`heifsave`, `jxlload`, …);
/// - a file or buffer none of the built-in loaders recognises (a HEIC, a JPEG XL, a PDF, or a damaged
///   file that only ImageMagick claims);
/// - a configuration that allows the untrusted loaders, whose priorities decide which loader claims a
///   file, so they are all loaded before any file is sniffed.
///
/// The modules are the ones in `vips-modules-X.Y` beside the libvips library the process runs, where
/// libvips installs them. Without an install prefix libvips also looks for no message catalogue, so
/// its messages within FrameDial's are in English, as FrameDial's own are.
enum FormatModules {
  private enum State {
    /// libvips has not started.
    case notStarted
    /// Started without modules.
    case deferred
    /// Loaded by ``loadIfDeferred()``.
    case loaded
  }

  private static let state = Mutex(State.notStarted)

  /// The environment variable libvips reads its install prefix from.
  private static let prefixVariable = "VIPSHOME"

  /// Runs `start` (libvips's `vips_init`) so that it loads no module, and returns its result. The
  /// environment is as it was once `start` returns.
  static func startingWithoutModules(_ start: () -> Int32) -> Int32 {
    // libvips looks for its modules under the prefix `VIPSHOME` names; under this one there is no
    // folder. libvips keeps no copy of the prefix after start-up, so the environment is restored at
    // once (libvips would otherwise leave its own guess there, for every child process to inherit).
    let inherited = getenv(prefixVariable).map { String(cString: $0) }
    setenv(prefixVariable, "/dev/null", 1)
    let result = start()
    if let inherited {
      setenv(prefixVariable, inherited, 1)
    } else {
      unsetenv(prefixVariable)
    }
    state.withLock { $0 = .deferred }
    return result
  }

  /// Loads libvips's modules if start-up deferred them; once loaded, what failed without them may be
  /// tried again.
  static func loadIfDeferred() {
    let loaded = state.withLock { current -> Bool in
      guard case .deferred = current else { return false }
      current = .loaded
      // A folder that cannot be read leaves libvips as a start-up without modules leaves it.
      _ = fd_vips_load_modules()
      return true
    }
    if loaded { Vips.reapplyConfiguration() }
  }

  /// True while libvips runs without its modules.
  static var areDeferred: Bool {
    state.withLock {
      if case .deferred = $0 { return true }
      return false
    }
  }
}

extension FormatModules {
  /// `body`'s answer; when it has none while the modules are deferred, the modules are loaded and
  /// `body` asked again. `body` leaves libvips's error buffer as it found it.
  static func attempt<T>(_ body: () -> T?) -> T? {
    let deferredBefore = areDeferred
    if let answer = body() { return answer }
    guard deferredBefore else { return nil }
    loadIfDeferred()
    return body()
  }
}
