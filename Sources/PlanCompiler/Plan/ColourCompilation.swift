/// The compiled colour part of a plan, shared by every plan with the same colour-relevant state.
///
/// Holds the folded pipeline, the 8-bit output thresholds and the program for the pipeline's own gains, and
/// builds programs for measured auto white balance gains cheaply (the thresholds are reused).
final class ColourCompilation: Sendable {
  let pipeline: ColourPipeline
  let thresholds8: OutputThresholds
  /// The program for `pipeline.gains` alone (auto gains taken as 1).
  let program: ColourProgram

  init(pipeline: ColourPipeline, thresholds8: OutputThresholds) {
    self.pipeline = pipeline
    self.thresholds8 = thresholds8
    self.program = ColourCompilation.build(
      pipeline: pipeline, thresholds8: thresholds8, autoGains: SIMD3(1, 1, 1))
  }

  /// The program with auto white balance gains applied (ignored unless the pipeline uses them).
  func program(autoGains: SIMD3<Double>) -> ColourProgram {
    guard pipeline.usesAutoGains, autoGains != SIMD3(1, 1, 1) else { return program }
    return ColourCompilation.build(
      pipeline: pipeline, thresholds8: thresholds8, autoGains: autoGains)
  }

  private static func build(
    pipeline: ColourPipeline, thresholds8: OutputThresholds, autoGains: SIMD3<Double>
  ) -> ColourProgram {
    let gains = pipeline.usesAutoGains ? pipeline.gains * autoGains : pipeline.gains
    if let matrix = pipeline.matrix {
      return .mixing(
        MixingTables(
          gains: gains, matrix: matrix, transfer: pipeline.outputTransfer, thresholds8: thresholds8)
      )
    }
    return .perChannel(
      PerChannelTables(
        gains: gains, domain: pipeline.domain, transfer: pipeline.outputTransfer,
        thresholds8: thresholds8))
  }
}
