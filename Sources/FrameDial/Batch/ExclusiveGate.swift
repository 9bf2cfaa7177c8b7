import Foundation

/// Lets many workers run at once, or one alone.
///
/// libvips keeps one error buffer for the whole process, so when two files fail at the same moment their
/// messages mix. ``BatchRunner`` runs files inside ``shared(_:)`` and retries a failed file inside
/// ``alone(_:)``, where nothing else runs and the message is that file's own. A worker waiting to run
/// alone holds back new shared work, so it is never starved.
final class ExclusiveGate: @unchecked Sendable {
  // All state is read and written with `condition` locked.
  private let condition = NSCondition()
  private var sharing = 0
  private var waitingAlone = 0
  private var runningAlone = false

  /// Runs `body` beside other shared work, once nothing runs alone or waits to.
  func shared<T>(_ body: () throws -> T) rethrows -> T {
    condition.lock()
    while runningAlone || waitingAlone > 0 { condition.wait() }
    sharing += 1
    condition.unlock()
    defer { leave { sharing -= 1 } }
    return try body()
  }

  /// Runs `body` with nothing else inside the gate. Must not be called from inside ``shared(_:)``.
  func alone<T>(_ body: () throws -> T) rethrows -> T {
    condition.lock()
    waitingAlone += 1
    while runningAlone || sharing > 0 { condition.wait() }
    waitingAlone -= 1
    runningAlone = true
    condition.unlock()
    defer { leave { runningAlone = false } }
    return try body()
  }

  private func leave(_ change: () -> Void) {
    condition.lock()
    change()
    condition.broadcast()
    condition.unlock()
  }
}
