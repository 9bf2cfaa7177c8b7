import Foundation

/// A first-in, first-out queue between two threads that holds at most `capacity` items: `push` waits
/// while it is full, `pop` while it is empty; `close` wakes both for good (pushes are then dropped and
/// pops return nil once the queue is empty).
final class BoundedQueue<Item>: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [Item] = []
  private let capacity: Int
  private var closed = false

  /// A queue of at most `capacity` items.
  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// Adds `item`, waiting while the queue is full; false when the queue is closed (the item dropped).
  @discardableResult
  func push(_ item: Item) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while items.count >= capacity && !closed { condition.wait() }
    guard !closed else { return false }
    items.append(item)
    condition.broadcast()
    return true
  }

  /// The oldest item, waiting while the queue is empty; nil once it is closed and empty.
  func pop() -> Item? {
    condition.lock()
    defer { condition.unlock() }
    while items.isEmpty && !closed { condition.wait() }
    guard !items.isEmpty else { return nil }
    condition.broadcast()
    return items.removeFirst()
  }

  /// Closes the queue: waiting pushes and pops return.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  /// The items still queued, removed (after `close`, to free them).
  func drain() -> [Item] {
    condition.lock()
    defer { condition.unlock() }
    let left = items
    items = []
    return left
  }
}
