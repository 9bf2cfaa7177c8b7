import Controls
import Testing

@testable import PlanCompiler

@Suite struct PlanCacheTests {
  @Test func equalStatesShareOnePlan() {
    let cache = PlanCache()
    let a = cache.plan(for: ControlState(exposureBias: 1, filter: .sepia))
    let b = cache.plan(for: ControlState(exposureBias: 1, filter: .sepia))
    #expect(a === b)
    #expect(cache.plan(for: ControlState(exposureBias: 2)) !== a)
    #expect(cache.count == 2)
  }

  @Test func zoomChangeReusesTheColourTables() {
    let cache = PlanCache()
    let base = cache.plan(for: ControlState(saturation: 1.4, filter: .chrome))
    let zoomed = cache.plan(for: ControlState(zoom: 2, saturation: 1.4, filter: .chrome))
    #expect(base !== zoomed)
    guard case .mixing(let first) = base.colorProgram,
      case .mixing(let second) = zoomed.colorProgram
    else {
      Issue.record("expected mixing programs")
      return
    }
    #expect(first === second)
  }

  @Test func sizeStaysBoundedAndOldestIsDropped() {
    let cache = PlanCache(capacity: 8)
    let first = cache.plan(for: ControlState(exposureBias: 0.1))
    for step in 2...20 {
      _ = cache.plan(for: ControlState(exposureBias: 0.1 * Double(step)))
    }
    #expect(cache.count == 8)
    #expect(cache.plan(for: ControlState(exposureBias: 0.1)) !== first)
    let recent = cache.plan(for: ControlState(exposureBias: 2))
    #expect(cache.plan(for: ControlState(exposureBias: 2)) === recent)
  }

  @Test func concurrentTasksGetConsistentPlans() async {
    let cache = PlanCache(capacity: 16)
    let states = (0..<24).map {
      ControlState(contrast: 0.5 + Double($0) * 0.05, saturation: $0.isMultiple(of: 2) ? 1.2 : 1)
    }
    let results = await withTaskGroup(of: [Int].self) { group in
      for task in 0..<8 {
        group.addTask {
          (0..<200).map { step in
            let index = (step * 7 + task) % states.count
            let plan = cache.plan(for: states[index])
            return plan.state == states[index] ? Int(plan.apply(SIMD3(100, 150, 200)).x) : -1
          }
        }
      }
      var all: [[Int]] = []
      for await result in group { all.append(result) }
      return all
    }
    #expect(results.count == 8)
    #expect(results.allSatisfy { !$0.contains(-1) })
    #expect(cache.count <= 16)
    let reference = Plan(compiling: states[3]).apply(SIMD3(100, 150, 200))
    #expect(cache.plan(for: states[3]).apply(SIMD3(100, 150, 200)) == reference)
  }
}
