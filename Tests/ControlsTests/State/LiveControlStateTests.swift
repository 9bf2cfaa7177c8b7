import Dispatch
import Foundation
import Testing

@testable import Controls

@Suite struct LiveControlStateTests {
  @Test func generationGrowsOnlyOnChange() {
    let live = LiveControlState()
    #expect(live.snapshot().generation == 0)
    let first = live.set(ControlState(zoom: 2))
    #expect(first.generation == 1)
    #expect(live.set(ControlState(zoom: 2)).generation == 1)
    #expect(live.snapshot(newerThan: 1) == nil)
    let second = live.update { $0.tint = 5 }
    #expect(second.generation == 2 && second.state.tint == 5 && second.updatedAt >= first.updatedAt)
    #expect(live.snapshot(newerThan: 1)?.generation == 2)
    #expect(live.generation == 2)
  }

  @Test func failedUpdateLeavesTheStateAlone() {
    let live = LiveControlState(ControlState(zoom: 3))
    #expect(throws: ControlStateError.self) { try live.perform(.slide(.zoom, value: 40)) }
    #expect(live.snapshot().state.zoom == 3 && live.snapshot().generation == 0)
  }

  @Test func manyWritersOneReader() async {
    let live = LiveControlState()
    let writers = 4
    let writesEach = 2_000
    let seen = await withTaskGroup(of: Int.self) { group in
      for writer in 0..<writers {
        group.addTask {
          for index in 0..<writesEach {
            live.update { state in
              state.tint = Double(writer)
              state.contrast = Double(index % 200) / 100
              state.saturation = state.contrast
            }
          }
          return 0
        }
      }
      group.addTask {
        var last: UInt64 = 0
        var reads = 0
        while last < UInt64(writers * writesEach) {
          let snapshot = live.snapshot()
          guard snapshot.generation >= last else { return -1 }
          guard snapshot.state.contrast == snapshot.state.saturation else { return -1 }
          last = snapshot.generation
          reads += 1
          await Task.yield()
        }
        return reads
      }
      var results: [Int] = []
      for await result in group { results.append(result) }
      return results
    }
    #expect(!seen.contains(-1))
    #expect(live.snapshot().generation <= UInt64(writers * writesEach))
    #expect(live.snapshot().generation > 0)
  }
}
