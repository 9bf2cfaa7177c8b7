import Controls
import FrameDial
import Measurement
import Vips

/// What recompiling costs when one slider moves, and what a plan-cache hit costs.
struct CompileResult: Sendable, Codable {
  /// Microseconds per `PlanCache.plan(for:)` miss, the contrast changing by a small step each time.
  var recompile: Summary
  /// Microseconds per `PlanCache.plan(for:)` hit on an unchanged state.
  var cacheHit: Summary
  /// How the recompiles were made, for the report.
  static let method = """
    recompile: one long-lived PlanCache (64 plans), the colour state with contrast stepping by 0.0009 \
    through 1000 distinct values (every call misses; the colour compiler's memo shares what did not \
    change, as in the renderer); includes the 8-bit kernel tables, built eagerly. Cache hit: the same \
    state asked again.
    """
}

/// Times plan compilation through `PlanCache`.
struct CompileBenchmark {
  var options: BenchmarkOptions

  func run() throws -> CompileResult {
    let cache = PlanCache()
    var state = FrameState.colourState
    var misses: [Double] = []
    let warmup = options.compilations / 10
    for index in 0..<(warmup + options.compilations) {
      state.contrast = 1 + Double(index % 1000) * 0.0009
      let changed = state
      let seconds = Timing.measure { blackHole(cache.plan(for: changed).colorProgram) }
      if index >= warmup { misses.append(seconds) }
    }
    var hits: [Double] = []
    let fixed = state
    for index in 0..<(warmup + options.compilations) {
      let seconds = Timing.measure { blackHole(cache.plan(for: fixed)) }
      if index >= warmup { hits.append(seconds) }
    }
    guard let recompile = Summary(misses), let cacheHit = Summary(hits) else {
      throw VipsError("no compilations were timed")
    }
    return CompileResult(recompile: recompile.scaled(by: 1e6), cacheHit: cacheHit.scaled(by: 1e6))
  }
}
