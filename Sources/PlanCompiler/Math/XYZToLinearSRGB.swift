/// The matrix taking CIE XYZ (D65) to linear sRGB, as listed in FrameDial's image-math contract.
public enum XYZToLinearSRGB {
  /// `linear sRGB = matrix · XYZ`.
  public static let matrix = Matrix3(
    SIMD3(3.2409699, -1.5373832, -0.4986108),
    SIMD3(-0.9692436, 1.8759675, 0.0415551),
    SIMD3(0.0556301, -0.2039770, 1.0569715))
}
