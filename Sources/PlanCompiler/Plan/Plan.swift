import Controls

/// The optimized, immutable form of a control state: a fold of its ``Recipe`` into an optional zoom and a
/// colour program of tables.
///
/// `recipe` is the same state unoptimized, stage by stage, for lowering paths that walk it. Plans are shared
/// between threads and cached by `PlanCache`; their 16-bit tables are built on first use.
public final class Plan: Sendable {
  /// The state this plan was compiled from, as given.
  public let state: ControlState
  /// The encoding of the pictures the plan is for: its colour stages act in this encoding's linear light.
  public let encoding: ColourEncoding
  /// The unoptimized recipe of the state.
  public let recipe: Recipe
  /// The zoom, or nil when the factor is 1.
  public let zoom: PlanZoom?
  /// The folded colour stages, or nil when the state changes no colour.
  public let pipeline: ColourPipeline?
  private let compilation: ColourCompilation?

  /// Compiles a state on its own, without a cache, for pictures in `encoding`.
  public convenience init(compiling state: ControlState, encoding: ColourEncoding = .sRGB) {
    var compiler = ColourCompiler(memoCapacity: 0)
    self.init(state: state, encoding: encoding, compiler: &compiler)
  }

  init(state: ControlState, encoding: ColourEncoding, compiler: inout ColourCompiler) {
    let compilable = CompilableState(state, encoding: encoding)
    self.state = state
    self.encoding = encoding
    let recipe = Recipe(compiling: compilable)
    self.recipe = recipe
    self.zoom = recipe.stages.lazy.compactMap(PlanZoom.init(stage:)).first
    self.compilation = compiler.compilation(for: compilable.colorKey, recipe: recipe)
    self.pipeline = compilation?.pipeline
  }

  /// The colour program. With auto white balance it is built for gains of 1; use `colorProgram(autoGains:)`.
  public var colorProgram: ColourProgram { compilation?.program ?? .identity }

  /// The colour program for auto white balance gains measured on the image (grey world).
  ///
  /// Gains are clamped to 0.25 … 4 as the contract's measurement does, and a non-finite gain reads as 1. Plans
  /// without auto white balance return `colorProgram`. Building reuses the plan's output thresholds, so it
  /// costs a few microseconds at 8 bits.
  public func colorProgram(autoGains: SIMD3<Double>) -> ColourProgram {
    guard let compilation else { return .identity }
    var usable = SIMD3<Double>(repeating: 1)
    for channel in 0..<3 where autoGains[channel].isFinite {
      usable[channel] = min(max(autoGains[channel], 0.25), 4)
    }
    return compilation.program(autoGains: usable)
  }

  /// True when the colour tables depend on gains measured from the image at render time.
  public var needsAutoWhiteBalance: Bool { pipeline?.usesAutoGains ?? false }

  /// True when R, G and B go through the same function, so a one-band grey image can stay one band and use
  /// the first channel's table (always true for the identity).
  public var treatsChannelsAlike: Bool { pipeline?.treatsChannelsAlike ?? true }
}
