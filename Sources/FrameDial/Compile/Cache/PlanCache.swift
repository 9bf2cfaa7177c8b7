import Controls
import Foundation

/// A thread-safe, bounded cache of compiled plans keyed by control state.
///
/// Equal states get the same `Plan` instance. When a state misses, only what changed is rebuilt: colour
/// programs are shared by states that differ only in zoom, and output thresholds by states with the same curve
/// and contrast. The least recently used plan is dropped beyond `capacity`.
///
/// The lock is an `NSLock` (a pthread mutex on Linux) rather than `Synchronization.Mutex`, whose futex-based
/// Linux implementation the thread sanitizer cannot see: CI runs this cache's concurrency test under it.
public final class PlanCache: @unchecked Sendable {
  private struct Storage {
    var plans: RecencyCache<ControlState, Plan>
    var compiler: ColorCompiler
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
      plans: RecencyCache(capacity: capacity), compiler: ColorCompiler(memoCapacity: capacity))
  }

  /// The plan for `state`: cached, or compiled and remembered.
  public func plan(for state: ControlState) -> Plan {
    lock.withLock {
      if let plan = storage.plans.value(for: state) { return plan }
      let plan = Plan(state: state, compiler: &storage.compiler)
      storage.plans.insert(plan, for: state)
      return plan
    }
  }

  /// The plan for `state` on pictures whose codes are in `encoding`.
  ///
  /// Not yet specialised: every encoding gets the sRGB plan (the compiler's colour spaces come next).
  public func plan(for state: ControlState, encoding: ColourEncoding) -> Plan {
    plan(for: state)
  }

  /// The number of plans held.
  public var count: Int {
    lock.withLock { storage.plans.count }
  }
}
