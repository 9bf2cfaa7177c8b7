import CRowKernels

/// The parts of a 16-bit channel mix
/// (``ColourRows/init(inputTables16:matrix:outputTables16:scale:squareRootIndex:)``), for code that
/// runs the mix within a pass of its own (the tone mapper's mixed rows). The tables are the
/// ``ColourRows``' own copies: valid only while it lives.
public struct ChannelMix16Parts {
  /// 3 × 65536 input floats, R, G, B.
  public let inputTables: UnsafePointer<Float>
  /// The row-major 3 × 3 matrix.
  public let matrix: [Float]
  /// 3 × ``outputCount`` 16-bit codes, R, G, B.
  public let outputTables: UnsafePointer<UInt16>
  /// Entries of each output table.
  public let outputCount: Int
  /// The factor from a mixed value (or its square root) to an output table position.
  public let scale: Float
  /// Whether the position comes from the mixed value's square root.
  public let squareRootIndex: Bool
}

extension ColourRows {
  /// The parts of this transform when it is a 16-bit channel mix; nil for other transforms.
  public var mix16Parts: ChannelMix16Parts? {
    var parts = FDColourMix16()
    guard fd_colour_rows_mix16_parts(pointer, &parts) != 0, let inputs = parts.input_tables,
      let outputs = parts.output_tables
    else { return nil }
    let matrix = withUnsafeBytes(of: parts.matrix) { Array($0.bindMemory(to: Float.self)) }
    return ChannelMix16Parts(
      inputTables: inputs, matrix: matrix, outputTables: outputs,
      outputCount: Int(parts.output_count), scale: parts.scale,
      squareRootIndex: parts.square_root_index != 0)
  }
}
