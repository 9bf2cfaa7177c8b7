import RowKernels
import Vips

/// The tables of an 8-bit colour program in the exact form FrameDial's kernels read, in a chosen channel
/// order (RGB, or BGR for BGRA frames). Built once per plan, reused by every frame.
enum KernelTables8: Sendable {
  /// Nothing to do.
  case identity
  /// Per-channel 256-entry tables, channel-major.
  case lookup([UInt8])
  /// Input tables, a row-major 3×3 matrix, output tables and their index rule.
  case mix(input: [Float], matrix: [Float], output: [UInt8], scale: Float, squareRoot: Bool)

  /// The tables of `program`; `swapRedAndBlue` reorders them for frames stored B, G, R.
  init(_ program: ColourProgram, swapRedAndBlue: Bool = false) {
    let order = swapRedAndBlue ? [2, 1, 0] : [0, 1, 2]
    switch program {
    case .identity:
      self = .identity
    case .perChannel(let tables):
      self = .lookup(Self.reorder(tables.table8, count: 256, order))
    case .mixing(let tables):
      let output = tables.output8
      var matrix = [Float](repeating: 0, count: 9)
      for row in 0..<3 {
        for column in 0..<3 {
          matrix[row * 3 + column] = tables.matrix[order[row] * 3 + order[column]]
        }
      }
      self = .mix(
        input: Self.reorder(tables.input8, count: 256, order), matrix: matrix,
        output: Self.reorder(output.values, count: output.count, order), scale: output.scale,
        squareRoot: output.indexing == .squareRoot)
    }
  }

  /// Applies the tables to the first three bands of an 8-bit image (alpha copied).
  func apply(to image: Image) throws -> Image {
    switch self {
    case .identity:
      return image
    case .lookup(let tables):
      return try image.applyingLookupTables(tables, colourBands: 3)
    case .mix(let input, let matrix, let output, let scale, let squareRoot):
      return try image.applyingChannelMix(
        inputTables: input, matrix: matrix, outputTables: output, scale: scale,
        squareRootIndex: squareRoot)
    }
  }

  /// The tables as a transform of packed RGB rows in the caller's own buffers (the same pixels as
  /// ``apply(to:)``, without a libvips image); nil for `.identity`.
  func colourRows() throws -> ColourRows? {
    switch self {
    case .identity:
      return nil
    case .lookup(let tables):
      return try ColourRows(lookupTables: tables)
    case .mix(let input, let matrix, let output, let scale, let squareRoot):
      return try ColourRows(
        inputTables: input, matrix: matrix, outputTables: output, scale: scale,
        squareRootIndex: squareRoot)
    }
  }

  private static func reorder<T>(_ tables: [T], count: Int, _ order: [Int]) -> [T] {
    if order == [0, 1, 2] { return tables }
    return order.flatMap { tables[($0 * count)..<(($0 + 1) * count)] }
  }
}
