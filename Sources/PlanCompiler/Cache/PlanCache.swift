import Controls
import Foundation

/// A thread-safe, bounded cache of compiled plans keyed by control state and colour encoding.
///
/// Equal states for the same encoding get the same `Plan` instance. When a state misses, only what changed is rebuilt: colour
/// programs are shared by states that differ only in zoom, and output thresholds by states with the same curve
/// and contrast. The least recently used plan is dropped beyond `capacity`.
///
/// The lock is an `NSLock` (a pthread mutex on Linux) rather than `Synchronization.Mutex`, whose futex-based
/// Linux implementation the thread sanitizer cannot see: CI runs this cache's concurrency test under it.
public final class PlanCache: @unchecked Sendable {
  private struct Key: Hashable {
    var state: ControlState
    var encoding: ColourEncoding
  }

  private struct Storage {
    var plans: RecencyCache<Key, Plan>
    var compiler: ColourCompiler
  }

  /// The most plans kept.
  public let capacity: Int
  private var storage: Storage
  private let lock = NSLock()

  /// A cache keeping up to `capacity` plans (at least 1), and as many colour programs.
  public init(capacity: Int = 64) {
    let capacity = max(capacity, 1)
    self.capacity = capacity
    storage = Storage(
      plans: RecencyCache(capacity: capacity), compiler: ColourCompiler(memoCapacity: capacity))
  }

  /// The plan for `state` on sRGB pictures: cached, or compiled and remembered.
  public func plan(for state: ControlState) -> Plan {
    plan(for: state, encoding: .sRGB)
  }

  /// The plan for `state` on pictures whose codes are in `encoding`: cached, or compiled and remembered.
  public func plan(for state: ControlState, encoding: ColourEncoding) -> Plan {
    let key = Key(state: state, encoding: encoding)
    return lock.withLock {
      if let plan = storage.plans.value(for: key) { return plan }
      let plan = Plan(state: state, encoding: encoding, compiler: &storage.compiler)
      storage.plans.insert(plan, for: key)
      return plan
    }
  }

  /// The number of plans held.
  public var count: Int {
    lock.withLock { storage.plans.count }
  }
}
