import Controls

/// The pixel math of a named look: a 3×3 matrix in linear light and/or a tone curve on encoded values.
///
/// The matrix runs after saturation, the curve after encoding and before contrast. The values are
/// FrameDial's own; FILTERS.md lists them with the property each look guarantees. The grey, sepia and
/// saturating looks use the luma of the picture's primaries; the diagonal looks scale its own channels.
public struct FilterLook: Sendable, Hashable {
  /// The look's matrix in linear light, or nil when it mixes nothing.
  public let matrix: Matrix3?
  /// The look's curve on encoded values, or nil when it has none.
  public let curve: Curve?
  /// The property the look guarantees, in words.
  public let property: String

  /// The look of `filter` for linear light whose luma weights are `luma` (Rec. 709 unless given).
  public init(_ filter: Filter, luma: SIMD3<Double> = Rec709Luma.weights) {
    let grey = Matrix3(repeating: luma)
    switch filter {
    case .none:
      self.init(matrix: nil, curve: nil, property: "identity")
    case .mono:
      self.init(matrix: grey, curve: nil, property: "R = G = B = Y")
    case .tonal:
      self.init(
        matrix: grey, curve: Curve(trustedPoints: [SIMD2(0, 0.06), SIMD2(1, 0.94)]),
        property: "grey, lower contrast than mono")
    case .noir:
      self.init(
        matrix: grey,
        curve: Curve(trustedPoints: [
          SIMD2(0, 0), SIMD2(0.25, 0.16), SIMD2(0.75, 0.84), SIMD2(1, 1),
        ]),
        property: "grey, higher contrast than mono")
    case .sepia:
      self.init(
        matrix: Matrix3(
          luma * 1.0, luma * 0.89, luma * 0.70),
        curve: nil, property: "grey input gives R > G > B")
    case .chrome:
      self.init(
        matrix: SaturationMatrix.matrix(saturation: 1.25, luma: luma),
        curve: Curve(trustedPoints: [
          SIMD2(0, 0), SIMD2(0.25, 0.21), SIMD2(0.75, 0.79), SIMD2(1, 1),
        ]),
        property: "more saturated and contrasty")
    case .fade:
      self.init(
        matrix: SaturationMatrix.matrix(saturation: 0.7, luma: luma),
        curve: Curve(trustedPoints: [SIMD2(0, 0.1), SIMD2(1, 0.96)]),
        property: "less saturated, blacks lifted")
    case .instant:
      self.init(
        matrix: SaturationMatrix.matrix(saturation: 0.9, luma: luma).followed(
          by: Matrix3(diagonal: SIMD3(1.06, 1, 0.86))),
        curve: Curve(trustedPoints: [SIMD2(0, 0.05), SIMD2(1, 0.97)]),
        property: "warmer, slightly faded")
    case .process:
      self.init(matrix: Matrix3(diagonal: SIMD3(0.90, 1, 1.12)), curve: nil, property: "cooler")
    case .transfer:
      self.init(
        matrix: Matrix3(diagonal: SIMD3(1.12, 1.02, 0.84)),
        curve: Curve(trustedPoints: [SIMD2(0, 0.03), SIMD2(0.5, 0.52), SIMD2(1, 1)]),
        property: "warmer")
    case .vivid:
      self.init(
        matrix: SaturationMatrix.matrix(saturation: 1.4, luma: luma), curve: nil,
        property: "more saturated")
    }
  }

  private init(matrix: Matrix3?, curve: Curve?, property: String) {
    self.matrix = matrix
    self.curve = curve
    self.property = property
  }
}
