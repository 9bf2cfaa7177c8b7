extension Recipe {
  /// The double-precision ground truth: encoded RGB (0 … 1) in, encoded RGB out, clipped to 0 … 1.
  ///
  /// Stages apply in order with nothing clipped between them except negative light before encoding; the
  /// one clip to 0 … 1 comes last. `autoGains` are the gains `autoWhiteBalance` would measure.
  public func evaluate(_ rgb: SIMD3<Double>, autoGains: SIMD3<Double> = SIMD3(1, 1, 1)) -> SIMD3<
    Double
  > {
    var value = rgb
    for stage in stages {
      value = stage.apply(value, autoGains: autoGains)
    }
    return value.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
  }
}
