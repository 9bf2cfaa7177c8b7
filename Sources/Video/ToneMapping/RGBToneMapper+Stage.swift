import RowKernels

/// The tone mapping as the one-pass 10-bit render's second stage; a 16-bit channel mix in front of it
/// joins it as one stage (``MixedToneMapStage``).
extension RGBToneMapper: RGB48RowStage {
  /// The mix of `colour` and this mapping as one stage, or nil when `colour` is not a 16-bit channel
  /// mix. The tables it needs are kept for the last mix asked for, so that a render whose colour has
  /// not changed makes them once.
  public func fused(with colour: ColourRows) -> (any RGB48RowStage)? {
    guard let parts = colour.mix16Parts else { return nil }
    let lights = mixLights.withLock { kept in
      if let kept, kept.colour === colour { return kept }
      let made = MixLights(colour, parts: parts, mapper: self)
      kept = made
      return made
    }
    return MixedToneMapStage(mapper: self, colour: colour, parts: parts, lights: lights)
  }
}
