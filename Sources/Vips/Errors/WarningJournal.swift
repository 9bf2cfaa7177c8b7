import CVips
import Foundation
import Synchronization

/// libvips's own warnings (its `VIPS` GLib log domain), kept for the thread that raised them.
///
/// A loader can fail with no reason in libvips's error buffer: libpng's and libtiff's complaints
/// ("bKGD: chunk data is too large", "not enough data") reach libvips as GLib warnings, and libvips
/// then says only that the operation failed. The warnings a thread raised while it ran a loader are
/// that loader's reasons. Once libvips has started, every warning of the domain comes here; it is
/// printed as GLib prints it only when `FRAMEDIAL_VIPS_WARNINGS` is set, as before.
enum WarningJournal {
  private struct Entry {
    var number: UInt64
    var thread: UInt
    var message: String
  }

  private struct State {
    var count: UInt64 = 0
    var recent: [Entry] = []
  }

  private static let state = Mutex(State())
  /// Warnings kept, from every thread together.
  private static let keptMessages = 64
  /// True when libvips's warnings are printed as well as kept.
  private static let printed = getenv("FRAMEDIAL_VIPS_WARNINGS") != nil

  /// Makes every warning of libvips's log domain come here (call once, after libvips has started).
  static func install() {
    _ = g_log_set_handler(
      "VIPS", G_LOG_LEVEL_WARNING,
      { domain, level, message, _ in
        if let message { WarningJournal.keep(String(cString: message)) }
        if WarningJournal.printed { g_log_default_handler(domain, level, message, nil) }
      }, nil)
  }

  /// This thread's identity.
  private static var thread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

  private static func keep(_ message: String) {
    let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { return }
    let thread = thread
    state.withLock { state in
      state.count += 1
      state.recent.append(Entry(number: state.count, thread: thread, message: text))
      if state.recent.count > keptMessages { state.recent.removeFirst() }
    }
  }

  /// The number of warnings kept so far.
  static func mark() -> UInt64 {
    state.withLock { $0.count }
  }

  /// The distinct warnings this thread raised after `mark`, oldest first (the oldest of many may be
  /// missing: only the last few of all threads are kept).
  static func messages(since mark: UInt64) -> [String] {
    let thread = thread
    let found = state.withLock { state in
      state.recent.filter { $0.number > mark && $0.thread == thread }.map(\.message)
    }
    var distinct: [String] = []
    for message in found where !distinct.contains(message) { distinct.append(message) }
    return distinct
  }
}
