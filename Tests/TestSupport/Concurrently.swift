import Foundation
import Synchronization

/// Runs `body` on each of `items`, `workers` at once, and returns the results in the items' order: for
/// tests that run many independent child processes (one `framedial` a file), which spend much of their
/// time starting up and waiting, so two at once on two cores take little more than one. The first
/// error thrown is rethrown once every started item has finished; items not yet started are skipped.
public func concurrentMap<Item: Sendable, Result: Sendable>(
  _ items: [Item], workers: Int = 2, _ body: @Sendable (Item) throws -> Result
) throws -> [Result] {
  let next = Atomic<Int>(0)
  let results = Mutex<[Result?]>(Array(repeating: nil, count: items.count))
  let failure = Mutex<(any Error)?>(nil)
  DispatchQueue.concurrentPerform(iterations: max(1, min(workers, items.count))) { _ in
    while failure.withLock({ $0 == nil }) {
      let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
      guard index < items.count else { return }
      do {
        let result = try body(items[index])
        results.withLock { $0[index] = result }
      } catch {
        failure.withLock { $0 = $0 ?? error }
      }
    }
  }
  if let error = failure.withLock({ $0 }) { throw error }
  return results.withLock { $0.compactMap { $0 } }
}
