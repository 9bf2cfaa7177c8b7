extension ColourEncoding.Primaries {
  /// The CIE 1931 `xy` chromaticities of the red, green and blue primaries.
  public var chromaticities: (red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>) {
    switch self {
    case .bt709: (SIMD2(0.640, 0.330), SIMD2(0.300, 0.600), SIMD2(0.150, 0.060))
    case .displayP3: (SIMD2(0.680, 0.320), SIMD2(0.265, 0.690), SIMD2(0.150, 0.060))
    case .bt2020: (SIMD2(0.708, 0.292), SIMD2(0.170, 0.797), SIMD2(0.131, 0.046))
    }
  }

  /// The white point of every supported set of primaries: D65, `xy = (0.3127, 0.3290)`.
  public static let whitePoint = SIMD2<Double>(0.3127, 0.3290)

  /// The matrix taking linear RGB in these primaries to CIE XYZ, derived from the chromaticities and D65:
  /// the primaries' `XYZ` (at `Y = 1`) as columns, each scaled so that RGB `(1, 1, 1)` is D65 at `Y = 1`.
  public var derivedRGBToXYZ: Matrix3 {
    let (red, green, blue) = chromaticities
    func xyz(_ xy: SIMD2<Double>) -> SIMD3<Double> {
      SIMD3(xy.x / xy.y, 1, (1 - xy.x - xy.y) / xy.y)
    }
    let columns = [xyz(red), xyz(green), xyz(blue)]
    let primaries = Matrix3(
      SIMD3(columns[0].x, columns[1].x, columns[2].x),
      SIMD3(columns[0].y, columns[1].y, columns[2].y),
      SIMD3(columns[0].z, columns[1].z, columns[2].z))
    // The primaries are linearly independent, so the inverse exists.
    let scales = (primaries.inverse ?? .identity) * xyz(Self.whitePoint)
    return primaries * Matrix3(diagonal: scales)
  }

  /// The matrix taking CIE XYZ (D65) to linear RGB in these primaries: for BT.709 the sRGB standard's own
  /// published matrix (``XYZToLinearSRGB``, which the derivation reproduces to 1e-6), otherwise the
  /// inverse of ``derivedRGBToXYZ``.
  public var xyzToLinear: Matrix3 {
    switch self {
    case .bt709: XYZToLinearSRGB.matrix
    case .displayP3, .bt2020: derivedRGBToXYZ.inverse ?? .identity
    }
  }

  /// The luma weights of linear RGB in these primaries (the `Y` row of RGB → XYZ; they sum to 1): for
  /// BT.709 the published ``Rec709Luma`` weights, for BT.2020 ≈ (0.2627, 0.6780, 0.0593), for Display P3
  /// ≈ (0.2290, 0.6917, 0.0793).
  public var lumaWeights: SIMD3<Double> {
    switch self {
    case .bt709: Rec709Luma.weights
    case .displayP3, .bt2020: derivedRGBToXYZ.row1
    }
  }
}
