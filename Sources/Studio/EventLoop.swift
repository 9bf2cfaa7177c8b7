import CSoup
import Foundation

/// A GLib main context and loop run by one thread of its own: libsoup's server and connections (or a
/// ``LiveClient``'s session and connection) live on it (they are not thread-safe), and other threads
/// hand it work with ``invoke(_:)``.
final class EventLoop: @unchecked Sendable {
  // The context and loop pointers are set once and only passed to GLib's thread-safe calls
  // (g_main_context_invoke_full, g_main_loop_quit) from other threads: hence `@unchecked Sendable`.
  private let context: OpaquePointer
  private let loop: OpaquePointer

  /// Creates the context and the loop; nothing runs until ``run(setUp:tearDown:)``.
  init() {
    context = g_main_context_new()
    loop = g_main_loop_new(context, 0)
  }

  deinit {
    g_main_loop_unref(loop)
    g_main_context_unref(context)
  }

  /// Runs the loop on the calling thread until ``quit()``, with the context as the thread's default
  /// (so sources libsoup creates attach to it): `setUp` runs first, on this thread, then the loop runs
  /// unless `setUp` returned false; `tearDown` runs on this thread after the loop ends.
  func run(setUp: () -> Bool, tearDown: () -> Void) {
    g_main_context_push_thread_default(context)
    if setUp() { g_main_loop_run(loop) }
    tearDown()
    // Let sources that were dispatched before the end (closing sockets) finish.
    while g_main_context_iteration(context, 0) != 0 {}
    g_main_context_pop_thread_default(context)
  }

  /// Runs `work` on the loop's thread (at once when called on it, else at the loop's next turn).
  func invoke(_ work: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(WorkBox(work)).toOpaque()
    g_main_context_invoke_full(
      context, G_PRIORITY_DEFAULT,
      { data in
        guard let data else { return 0 }
        Unmanaged<WorkBox>.fromOpaque(data).takeUnretainedValue().work()
        return 0  // G_SOURCE_REMOVE
      },
      box,
      { data in
        guard let data else { return }
        Unmanaged<WorkBox>.fromOpaque(data).release()
      })
  }

  /// Runs `work` at the loop's next turn, never inside the caller; on the loop's thread only (libsoup's
  /// objects must not be closed from inside their own callbacks).
  func later(_ work: @escaping () -> Void) {
    let source = g_idle_source_new()
    attach(source, repeating: false, work)
    g_source_unref(source)
  }

  /// Runs `work` on the loop's thread every `seconds` until the returned source is destroyed
  /// (`g_source_destroy`, then `g_source_unref`: the caller holds a reference); on the loop's thread
  /// only.
  func every(seconds: UInt32, _ work: @escaping () -> Void) -> UnsafeMutablePointer<GSource>? {
    let source = g_timeout_source_new_seconds(seconds)
    attach(source, repeating: true, work)
    return source
  }

  /// Gives `source` a callback that runs `work` (kept in its data, released with the source) and then
  /// keeps the source when `repeating`, else removes it; and attaches it to the loop's context.
  private func attach(
    _ source: UnsafeMutablePointer<GSource>?, repeating: Bool, _ work: @escaping () -> Void
  ) {
    g_source_set_callback(
      source,
      { data in
        guard let data else { return 0 }
        let box = Unmanaged<LaterBox>.fromOpaque(data).takeUnretainedValue()
        box.work()
        return box.repeating ? 1 : 0  // G_SOURCE_CONTINUE : G_SOURCE_REMOVE
      }, Unmanaged.passRetained(LaterBox(work, repeating: repeating)).toOpaque(),
      { data in data.map { Unmanaged<LaterBox>.fromOpaque($0).release() } })
    g_source_attach(source, context)
  }

  /// Makes ``run(setUp:tearDown:)`` return; safe from any thread.
  func quit() {
    g_main_loop_quit(loop)
  }

  private final class LaterBox {
    let work: () -> Void
    let repeating: Bool
    init(_ work: @escaping () -> Void, repeating: Bool) {
      self.work = work
      self.repeating = repeating
    }
  }

  private final class WorkBox {
    let work: @Sendable () -> Void
    init(_ work: @escaping @Sendable () -> Void) { self.work = work }
  }
}
