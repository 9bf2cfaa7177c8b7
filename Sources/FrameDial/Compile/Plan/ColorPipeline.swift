import Controls
import Foundation

/// The colour stages of a recipe after folding: what the lookup tables and the matrix are built from.
///
/// Exposure, preset or kelvin white balance, and any diagonal matrix fold into one gain per channel; the
/// saturation and look matrices merge into one (`matrix`, nil when the merged matrix is diagonal); the look's
/// curve and contrast form the output transfer. Everything is in the linear light of the state's encoding.
public struct ColorPipeline: Sendable, Hashable {
  /// Where the gains and matrix act.
  public enum Domain: Sendable, Hashable {
    /// Input is decoded to linear light and encoded again before the curve and contrast.
    case linear
    /// No stage needs linear light: the curve and contrast act on the encoded input directly.
    case encoded
  }

  /// The encoding of the pictures the pipeline is for.
  public let encoding: ColourEncoding
  /// Whether the pipeline decodes to linear light.
  public let domain: Domain
  /// Fixed per-channel gains in linear light (`2^EV` × white balance × folded diagonal matrices).
  public let gains: SIMD3<Double>
  /// True when gains measured from the image (auto white balance) multiply `gains` at render time.
  public let usesAutoGains: Bool
  /// The merged non-diagonal matrix applied after the gains, or nil when no stage mixes channels.
  public let matrix: Matrix3?
  /// The look's curve on encoded values, applied before contrast.
  public let curve: Curve?
  /// Contrast around the encoding's pivot on encoded values (1 when unchanged).
  public let contrast: Double

  /// The folded pipeline of a state, or nil when the state changes no colour.
  init?(state: CompilableState) {
    let primaries = state.encoding.primaries
    let look = FilterLook(state.filter, luma: primaries.lumaWeights)
    var gains = SIMD3<Double>(repeating: pow(2, state.exposureBias))
    switch state.whiteBalance {
    case .preset(let preset):
      gains *= WhiteBalanceGains.gains(
        kelvin: preset.kelvin, tint: state.tint, primaries: primaries)
    case .kelvin(let kelvin):
      gains *= WhiteBalanceGains.gains(
        kelvin: kelvin, tint: state.tint, primaries: primaries)
    case .none, .auto:
      break
    }
    var matrix: Matrix3? =
      state.saturation == 1
      ? nil : SaturationMatrix.matrix(saturation: state.saturation, luma: primaries.lumaWeights)
    if let lookMatrix = look.matrix {
      matrix = matrix.map { $0.followed(by: lookMatrix) } ?? lookMatrix
    }
    if let merged = matrix, merged.isDiagonal {
      gains *= merged.diagonal
      matrix = nil
    }
    let usesLinearLight =
      state.exposureBias != 0 || state.whiteBalance != .none || state.saturation != 1
      || look.matrix != nil
    guard usesLinearLight || look.curve != nil || state.contrast != 1 else { return nil }
    self.encoding = state.encoding
    self.domain = usesLinearLight ? .linear : .encoded
    self.gains = gains
    self.usesAutoGains = state.whiteBalance == .auto
    self.matrix = matrix
    self.curve = look.curve
    self.contrast = state.contrast
  }

  /// The encoding transfer, curve and contrast, the part shared by every channel after the linear stages.
  var outputTransfer: OutputTransfer {
    OutputTransfer(signal: encoding.transfer, curve: curve, contrast: contrast)
  }

  /// True when every channel goes through the same function (no matrix, no measured gains, equal gains).
  public var treatsChannelsAlike: Bool {
    matrix == nil && !usesAutoGains && gains.x == gains.y && gains.y == gains.z
  }
}
