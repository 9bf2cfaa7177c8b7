import Foundation

/// The colour stages of a recipe after folding (a fold of ``Recipe``'s stages, not a second reading of
/// the state): what the lookup tables and the matrix are built from.
///
/// Exposure, preset or kelvin white balance, and any diagonal matrix fold into one gain per channel; the
/// saturation and look matrices merge into one (`matrix`, nil when the merged matrix is diagonal); the look's
/// curve and contrast form the output transfer. Everything is in the linear light of the state's encoding.
public struct ColourPipeline: Sendable, Hashable {
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

  /// The colour stages of `recipe` folded, for pictures in `encoding`; nil when no stage changes a colour.
  ///
  /// The recipe alone says which stages apply (see ``Recipe/init(compiling:encoding:)``); the fold only
  /// multiplies gains and matrices in their order and keeps the curve and contrast. The zoom is skipped.
  init?(folding recipe: Recipe, encoding: ColourEncoding) {
    var gains = SIMD3<Double>(repeating: 1)
    var matrix: Matrix3?
    var (usesLinearLight, usesAutoGains) = (false, false)
    var (curve, contrast): (Curve?, Double) = (nil, 1)
    for stage in recipe.stages {
      switch stage {
      case .zoom: continue
      case .decode, .encode: usesLinearLight = true
      case .exposure(let ev): gains *= pow(2, ev)
      case .gains(let stageGains, _): gains *= stageGains
      case .autoWhiteBalance: usesAutoGains = true
      case .matrix(let stageMatrix, _):
        matrix = matrix.map { $0.followed(by: stageMatrix) } ?? stageMatrix
      case .curve(let stageCurve, _): curve = stageCurve
      case .contrast(let k, _): contrast = k
      }
    }
    if let merged = matrix, merged.isDiagonal {
      gains *= merged.diagonal
      matrix = nil
    }
    guard usesLinearLight || curve != nil || contrast != 1 else { return nil }
    self.encoding = encoding
    self.domain = usesLinearLight ? .linear : .encoded
    self.gains = gains
    self.usesAutoGains = usesAutoGains
    self.matrix = matrix
    self.curve = curve
    self.contrast = contrast
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

/// The former spelling of ``ColourPipeline``.
@available(*, deprecated, renamed: "ColourPipeline")
public typealias ColorPipeline = ColourPipeline
