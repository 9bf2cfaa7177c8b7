import Testing

@testable import Measurement

@Suite struct LatencyAnalysisTests {
  typealias Change = LatencyAnalysis.Change
  typealias Frame = LatencyAnalysis.Frame

  @Test func latencyRunsToTheFirstFrameShowingTheValueOrANewerOne() {
    let frames = [
      Frame(generation: 0, startedAt: 0, finishedAt: 10),
      // Change 1 is set at 5, while frame 0 is in flight: frame 0 is stale for it.
      Frame(generation: 1, startedAt: 10, finishedAt: 20),
      Frame(generation: 3, startedAt: 20, finishedAt: 30),  // changes 2 (12) and 3 (15) both arrive
      Frame(generation: 3, startedAt: 30, finishedAt: 40),
    ]
    let changes = [
      Change(generation: 1, setAt: 5), Change(generation: 2, setAt: 12),
      Change(generation: 3, setAt: 15), Change(generation: 4, setAt: 38),
    ]
    let analysis = LatencyAnalysis(changes: changes, frames: frames)
    #expect(analysis.latencies == [15, 18, 15])
    #expect(analysis.unresolved == 1)  // generation 4 was never rendered
    #expect(analysis.superseded == 2)  // generations 2 and 4 never rendered exactly
    #expect(analysis.staleFramesPerChange == [1, 1, 1, 1])
    #expect(analysis.staleFrames == 3)  // frames 0, 1 and 3
  }

  @Test func noChangesNoLatencies() {
    let analysis = LatencyAnalysis(
      changes: [], frames: [Frame(generation: 0, startedAt: 0, finishedAt: 1)])
    #expect(analysis.latencies.isEmpty && analysis.staleFrames == 0 && analysis.unresolved == 0)
  }
}
