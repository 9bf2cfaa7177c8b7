import Dispatch
import FrameDial
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Catches SIGINT (Ctrl-C), SIGTERM and SIGHUP so that no command leaves a temporary file behind (a
/// signal the process was started with ignored is left ignored, unless the command asks for it).
///
/// The handlers run on a Dispatch queue, not in signal context. Exit codes are 128 + the signal
/// number: 130 (SIGINT), 143 (SIGTERM), 129 (SIGHUP).
///
/// The signals are blocked (held) from the start of the process (``holdSignals()``, which every thread
/// started later inherits) until the command has installed its trap or is known to have none: one that
/// comes before the trap waits for it instead of being lost or ending the process unreported. While a
/// trap is installed they stay blocked in every thread and reach it through Dispatch's signal
/// descriptor; ``cancel()`` releases them.
package final class SignalTrap: @unchecked Sendable {
  /// What a caught signal does.
  package enum Response: Sendable {
    /// The first signal sets a flag the command polls (start no more work, let what runs finish);
    /// a second one removes the temporary files being written and exits at once.
    case finishRunningWork
    /// A signal removes the temporary files being written and exits at once.
    case exitAtOnce
  }

  /// The signals caught.
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// The first signal caught (0 for none), shared with the signal handlers.
  private final class Caught: Sendable {
    let number = Atomic<Int32>(0)
  }

  private let caught = Caught()
  /// Only touched in `init` and `cancel`, on the command's thread, hence `@unchecked Sendable`.
  private var sources: [any DispatchSourceSignal] = []

  /// Starts catching the signals. `onSignal` runs once, on the first signal, when the work is left to
  /// finish; `onExit` runs just before an exit at once, after the temporary files are removed. The
  /// signals in `catchingIgnored` are caught even when the process was started with them ignored.
  package init(
    _ response: Response, catchingIgnored: Set<Int32> = [],
    onSignal: @escaping @Sendable (Int32) -> Void = { _ in },
    onExit: @escaping @Sendable (Int32) -> Void = { _ in }
  ) {
    let caught = self.caught
    // Held while the handlers are set up, which Dispatch does later on a thread of its own: a signal
    // that comes meanwhile waits for them.
    Self.holdSignals()
    sources = Self.signals.compactMap { number in
      // A signal ignored on entry stays ignored: `nohup` ignores SIGHUP, a shell ignores SIGINT for
      // a background job, unless `catchingIgnored` lists it. (Its disposition is read, not changed:
      // setting one, even to "ignore" for a moment, would drop a signal that is waiting.)
      guard catchingIgnored.contains(number) || Self.handler(of: number) != Self.ignoredHandler
      else { return nil }
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        let first = caught.number.compareExchange(
          expected: 0, desired: number, ordering: .sequentiallyConsistent
        ).exchanged
        if response == .finishRunningWork && first {
          onSignal(number)
          return
        }
        AtomicFile.abandonTemporaries()
        onExit(number)
        AtomicFile.abandonTemporaries()
        // `_exit`, not `exit`: other threads may be inside libvips or an encoder, whose static
        // destructors must not run under them.
        _exit(128 + number)
      }
      source.resume()
      return source
    }
  }

  /// A trap for a command that writes one file synchronously (`apply`, `preview`, `sweep`): a signal
  /// removes the temporary file, says so on standard error and exits at once.
  static func exitingAtOnce(command: String, console: Console) -> SignalTrap {
    SignalTrap(
      .exitAtOnce,
      onExit: { number in
        console.err(
          "framedial \(command): stopped by \(name(of: number)); no partial file is left behind")
      })
  }

  /// Stops catching: the signals caught get their default actions back and are released (one that
  /// came since takes its default action then).
  package func cancel() {
    for source in sources { _ = Glibc.signal(Int32(source.handle), SIG_DFL) }
    Self.releaseHeldSignals()
    for source in sources { source.cancel() }
    sources = []
  }

  /// Blocks the caught signals in the calling thread and every thread it starts from now on: sent
  /// to the process, they wait until a trap takes them or ``releaseHeldSignals()``. The process calls
  /// it first of all, before any other thread exists.
  static func holdSignals() {
    var set = signalSet
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Unblocks the caught signals in the calling thread: one that waits takes its action now (a
  /// trap's, or the default one, which ends the process).
  static func releaseHeldSignals() {
    var set = signalSet
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  /// ``signals`` as a set.
  private static var signalSet: sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for number in signals { sigaddset(&set, number) }
    return set
  }

  /// The handler `number` has now, as a number (`SIG_DFL` 0, ``ignoredHandler``, or a function).
  private static func handler(of number: Int32) -> Int? {
    var current = sigaction()
    guard sigaction(number, nil, &current) == 0 else { return nil }
    return current.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) }
  }

  /// Waits until Dispatch has installed the handlers, which it does asynchronously after `init`: until
  /// then a caught signal is still ignored. A command that runs until it is stopped (`studio`) calls this
  /// before saying it is ready. Returns false when they are not installed within `seconds`.
  @discardableResult
  package func waitUntilInstalled(seconds: Double = 5) -> Bool {
    let numbers = sources.map { Int32($0.handle) }
    let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while true {
      let installed = numbers.allSatisfy { number in
        let handler = Self.handler(of: number)
        return handler != nil && handler != 0 && handler != Self.ignoredHandler
      }
      if installed { return true }
      if ContinuousClock.now >= end { return false }
      usleep(1000)
    }
  }

  /// `SIG_IGN`'s value.
  private static let ignoredHandler = unsafeBitCast(SIG_IGN, to: Int.self)

  /// The signal caught, or nil.
  package var signal: Int32? {
    let number = caught.number.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// 128 + the number of the signal caught, nil when none was caught.
  var exitCode: Int32? { signal.map { 128 + $0 } }

  /// The signal's usual name ("SIGINT"), for messages.
  package static func name(of number: Int32) -> String {
    switch number {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    default: "signal \(number)"
    }
  }
}
