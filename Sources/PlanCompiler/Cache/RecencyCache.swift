/// A bounded map that forgets its least recently used entry when full. Not thread-safe on its own.
struct RecencyCache<Key: Hashable, Value> {
  private var entries: [Key: (value: Value, lastUse: UInt64)] = [:]
  private var clock: UInt64 = 0
  /// The most entries kept; 0 keeps none.
  let capacity: Int

  init(capacity: Int) {
    self.capacity = max(capacity, 0)
  }

  /// The number of entries held.
  var count: Int { entries.count }

  /// The value for `key`, marking it as just used.
  mutating func value(for key: Key) -> Value? {
    guard let entry = entries[key] else { return nil }
    clock &+= 1
    entries[key] = (entry.value, clock)
    return entry.value
  }

  /// Stores `value` for `key`, evicting the least recently used entry if over capacity.
  mutating func insert(_ value: Value, for key: Key) {
    guard capacity > 0 else { return }
    clock &+= 1
    entries[key] = (value, clock)
    if entries.count > capacity,
      let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
    {
      entries[oldest] = nil
    }
  }
}
