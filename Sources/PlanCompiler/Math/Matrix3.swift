/// A 3×3 matrix of doubles acting on column vectors of linear RGB: `out = M · in`.
public struct Matrix3: Sendable, Hashable, CustomStringConvertible {
  /// The first row: how the first output channel mixes the inputs.
  public var row0: SIMD3<Double>
  /// The second row.
  public var row1: SIMD3<Double>
  /// The third row.
  public var row2: SIMD3<Double>

  /// Creates a matrix from its rows.
  public init(_ row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
    self.row0 = row0
    self.row1 = row1
    self.row2 = row2
  }

  /// A diagonal matrix that scales each channel by the matching component.
  public init(diagonal: SIMD3<Double>) {
    self.init(
      SIMD3(diagonal.x, 0, 0),
      SIMD3(0, diagonal.y, 0),
      SIMD3(0, 0, diagonal.z))
  }

  /// A matrix whose three rows are all `row`: every output channel becomes the same mix.
  public init(repeating row: SIMD3<Double>) {
    self.init(row, row, row)
  }

  /// The identity matrix.
  public static let identity = Matrix3(diagonal: SIMD3(1, 1, 1))

  /// The rows in order.
  public var rows: [SIMD3<Double>] { [row0, row1, row2] }

  /// The columns in order.
  public var columns: [SIMD3<Double>] {
    [
      SIMD3(row0.x, row1.x, row2.x),
      SIMD3(row0.y, row1.y, row2.y),
      SIMD3(row0.z, row1.z, row2.z),
    ]
  }

  /// The main diagonal.
  public var diagonal: SIMD3<Double> { SIMD3(row0.x, row1.y, row2.z) }

  /// The nine entries row by row (`m[3 * row + column]`), as the fused kernel reads them.
  public var rowMajor: [Double] {
    [row0.x, row0.y, row0.z, row1.x, row1.y, row1.z, row2.x, row2.y, row2.z]
  }

  /// True when every entry off the main diagonal is exactly 0: the matrix only scales channels.
  public var isDiagonal: Bool {
    row0.y == 0 && row0.z == 0 && row1.x == 0 && row1.z == 0 && row2.x == 0 && row2.y == 0
  }

  /// True when every entry is within `tolerance` of the identity's.
  public func isIdentity(tolerance: Double = 0) -> Bool {
    let difference = [
      row0 - Matrix3.identity.row0, row1 - Matrix3.identity.row1, row2 - Matrix3.identity.row2,
    ]
    return difference.allSatisfy {
      abs($0.x) <= tolerance && abs($0.y) <= tolerance && abs($0.z) <= tolerance
    }
  }

  /// The determinant.
  public var determinant: Double {
    (row0
      * SIMD3(
        row1.y * row2.z - row1.z * row2.y, row1.z * row2.x - row1.x * row2.z,
        row1.x * row2.y - row1.y * row2.x)).sum()
  }

  /// The inverse matrix (adjugate over determinant), or nil when the matrix is singular.
  public var inverse: Matrix3? {
    let det = determinant
    guard det != 0, det.isFinite else { return nil }
    let (a, b, c) = (row0, row1, row2)
    return Matrix3(
      SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y) / det,
      SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z) / det,
      SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x) / det)
  }

  /// Applies the matrix to a column vector.
  public static func * (matrix: Matrix3, vector: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3((matrix.row0 * vector).sum(), (matrix.row1 * vector).sum(), (matrix.row2 * vector).sum())
  }

  /// The product `left · right`: applying it equals applying `right` first, then `left`.
  public static func * (left: Matrix3, right: Matrix3) -> Matrix3 {
    let columns = right.columns
    func row(_ r: SIMD3<Double>) -> SIMD3<Double> {
      SIMD3((r * columns[0]).sum(), (r * columns[1]).sum(), (r * columns[2]).sum())
    }
    return Matrix3(row(left.row0), row(left.row1), row(left.row2))
  }

  /// The matrix that applies `self` first and then `next`: `next · self`.
  public func followed(by next: Matrix3) -> Matrix3 {
    next * self
  }

  /// The rows, each as `[a, b, c]`, on one line.
  public var description: String {
    rows.map { row in
      "[" + [row.x, row.y, row.z].map { formatForDisplay($0) }.joined(separator: ", ") + "]"
    }.joined(separator: " ")
  }
}
