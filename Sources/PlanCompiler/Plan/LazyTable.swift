import Synchronization

/// A table built on first use and kept: lets immutable, shared plans defer their 16-bit tables.
final class LazyTable<Table: Sendable>: Sendable {
  private let storage = Mutex<Table?>(nil)
  private let build: @Sendable () -> Table

  init(_ build: @escaping @Sendable () -> Table) {
    self.build = build
  }

  /// The table, built under the lock by the first caller.
  var value: Table {
    storage.withLock { stored in
      if let table = stored { return table }
      let table = build()
      stored = table
      return table
    }
  }
}
