/// Builds colour compilations, remembering recent ones so a change to one control rebuilds only what it touches.
///
/// Compilations are memoized by the colour-relevant fields of the state (a zoom change reuses them), and the
/// 8-bit output thresholds by curve and contrast (a gain, saturation or white-balance change reuses them).
struct ColourCompiler {
  private var compilations: RecencyCache<CompilableState, ColourCompilation>
  private var thresholds: RecencyCache<OutputTransfer, OutputThresholds>

  /// A compiler remembering up to `memoCapacity` compilations and thresholds (0: remember nothing).
  init(memoCapacity: Int) {
    compilations = RecencyCache(capacity: memoCapacity)
    thresholds = RecencyCache(capacity: memoCapacity)
  }

  /// The compilation for a colour key whose stages are `recipe`'s (its zoom is ignored), or nil when
  /// the key changes no colour.
  mutating func compilation(for key: CompilableState, recipe: Recipe) -> ColourCompilation? {
    if let known = compilations.value(for: key) { return known }
    guard let pipeline = ColourPipeline(folding: recipe, encoding: key.encoding) else { return nil }
    let transfer = pipeline.outputTransfer
    let outputThresholds: OutputThresholds
    if let known = thresholds.value(for: transfer) {
      outputThresholds = known
    } else {
      outputThresholds = OutputThresholds(transfer: transfer, maxCode: 255)
      thresholds.insert(outputThresholds, for: transfer)
    }
    let compilation = ColourCompilation(pipeline: pipeline, thresholds8: outputThresholds)
    compilations.insert(compilation, for: key)
    return compilation
  }
}
