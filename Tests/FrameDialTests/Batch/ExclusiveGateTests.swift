import Foundation
import Synchronization
import Testing

@testable import FrameDial

@Suite struct ExclusiveGateTests {
  @Test func aloneRunsWithNothingElseInsideAndIsNotStarved() {
    let gate = ExclusiveGate()
    let inside = Atomic<Int>(0)
    let aloneInside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let aloneRuns = Atomic<Int>(0)
    let sharedRuns = Atomic<Int>(0)
    // Three workers run shared work back to back; each also asks to run alone every tenth round.
    DispatchQueue.concurrentPerform(iterations: 3) { _ in
      for round in 0..<200 {
        gate.shared {
          inside.add(1, ordering: .sequentiallyConsistent)
          sharedRuns.add(1, ordering: .relaxed)
          usleep(50)
          if aloneInside.load(ordering: .sequentiallyConsistent) != 0 {
            overlaps.add(1, ordering: .relaxed)
          }
          inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        if round % 10 == 0 {
          gate.alone {
            if aloneInside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
              overlaps.add(1, ordering: .relaxed)
            }
            usleep(50)
            if inside.load(ordering: .sequentiallyConsistent) != 0 {
              overlaps.add(1, ordering: .relaxed)
            }
            aloneInside.subtract(1, ordering: .sequentiallyConsistent)
            aloneRuns.add(1, ordering: .relaxed)
          }
        }
      }
    }
    #expect(overlaps.load(ordering: .relaxed) == 0)
    #expect(aloneRuns.load(ordering: .relaxed) == 60)
    #expect(sharedRuns.load(ordering: .relaxed) == 600)
  }
}
