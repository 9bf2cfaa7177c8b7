import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Catches SIGINT (Ctrl-C) and SIGTERM so a long command can stop cleanly: the first signal sets a flag
/// the command polls; the exit code then says which signal it was (130 or 143).
final class SignalTrap: @unchecked Sendable {
  /// The first signal caught (0 for none), shared with the signal handlers.
  private final class Caught: Sendable {
    let number = Atomic<Int32>(0)
  }

  private let caught = Caught()
  /// Kept alive for as long as the trap; only touched in `init`, hence `@unchecked Sendable`.
  private let sources: [any DispatchSourceSignal]

  /// Starts catching SIGINT and SIGTERM; `onSignal` runs once, on the first of them.
  init(onSignal: @escaping @Sendable (Int32) -> Void = { _ in }) {
    let caught = self.caught
    sources = [SIGINT, SIGTERM].map { number in
      _ = Glibc.signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        let first = caught.number.compareExchange(
          expected: 0, desired: number, ordering: .sequentiallyConsistent
        ).exchanged
        if first { onSignal(number) }
      }
      source.resume()
      return source
    }
  }

  /// The signal caught, or nil.
  var signal: Int32? {
    let number = caught.number.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// 130 for SIGINT, 143 for SIGTERM (128 + the signal number), nil when none was caught.
  var exitCode: Int32? { signal.map { 128 + $0 } }
}
