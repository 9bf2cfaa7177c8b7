import Controls
import Synchronization

/// A thread-safe, bounded cache of compiled plans keyed by control state.
///
/// Equal states get the same `Plan` instance. When a state misses, only what changed is rebuilt: colour
/// programs are shared by states that differ only in zoom, and output thresholds by states with the same curve
/// and contrast. The least recently used plan is dropped beyond `capacity`.
public final class PlanCache: Sendable {
  private struct Storage {
    var plans: RecencyCache<ControlState, Plan>
    var compiler: ColorCompiler
  }

  /// The most plans kept.
  public let capacity: Int
  private let storage: Mutex<Storage>

  /// A cache keeping up to `capacity` plans (at least 1), and as many colour programs.
  public init(capacity: Int = 64) {
    let capacity = max(capacity, 1)
    self.capacity = capacity
    storage = Mutex(
      Storage(
        plans: RecencyCache(capacity: capacity), compiler: ColorCompiler(memoCapacity: capacity)))
  }

  /// The plan for `state`: cached, or compiled and remembered.
  public func plan(for state: ControlState) -> Plan {
    storage.withLock { storage in
      if let plan = storage.plans.value(for: state) { return plan }
      let plan = Plan(state: state, compiler: &storage.compiler)
      storage.plans.insert(plan, for: state)
      return plan
    }
  }

  /// The number of plans held.
  public var count: Int {
    storage.withLock { $0.plans.count }
  }
}
