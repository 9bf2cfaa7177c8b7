import RowKernels
import Vips

extension ColourProgram {
  /// Applies the program to the colour bands of `image` through FrameDial's fused kernels (one pass per
  /// image: per-channel tables, or input tables → 3×3 matrix → output tables); alpha passes untouched.
  ///
  /// 8-bit images use the 256-entry tables, 16-bit images the 65536-entry ones. A one-band (grey) image,
  /// with or without alpha, stays grey when the program maps every grey level to a grey level; otherwise it
  /// is promoted to sRGB first.
  func lowered(on image: Image) throws -> Image {
    if case .identity = self { return image }
    let sixteen = image.format == .ushort
    // One band is grey, two are grey and alpha, three are RGB, four are RGB and alpha.
    let colourBands = image.bands == 2 ? 1 : image.bands == 4 ? 3 : image.bands
    if colourBands == 1 {
      if sixteen, let table = greyTable16() {
        return try image.applyingLookupTables(table, colourBands: 1)
      }
      if !sixteen, let table = greyTable8() {
        return try image.applyingLookupTables(table, colourBands: 1)
      }
      return try lowered(on: image.colourspace(sixteen ? "rgb16" : "srgb"))
    }
    guard colourBands == 3 else {
      throw RenderError("images with \(colourBands) colour bands are not supported")
    }
    guard sixteen else { return try KernelTables8(self).apply(to: image) }
    switch self {
    case .identity:
      return image
    case .perChannel(let tables):
      return try image.applyingLookupTables(tables.table16, colourBands: 3)
    case .mixing(let tables):
      let output = tables.output16
      return try image.applyingChannelMix(
        inputTables: tables.input16, matrix: tables.matrix, outputTables: output.values,
        scale: output.scale, squareRootIndex: output.indexing == .squareRoot)
    }
  }

  /// The program's 16-bit tables as a transform of packed 16-bit RGB rows in the caller's own buffers
  /// (the codes ``lowered(on:)`` gives a 16-bit RGB image, without a libvips image); nil for
  /// `.identity`.
  func colourRows16() throws -> ColourRows? {
    switch self {
    case .identity:
      return nil
    case .perChannel(let tables):
      return try ColourRows(lookupTables16: tables.table16)
    case .mixing(let tables):
      let output = tables.output16
      return try ColourRows(
        inputTables16: tables.input16, matrix: tables.matrix, outputTables16: output.values,
        scale: output.scale, squareRootIndex: output.indexing == .squareRoot)
    }
  }

  /// The 8-bit table for grey pixels, or nil when some grey level comes out coloured.
  func greyTable8() -> [UInt8]? { greyTable { apply($0) } }

  /// The 16-bit table for grey pixels, or nil when some grey level comes out coloured.
  func greyTable16() -> [UInt16]? { greyTable { apply($0) } }

  /// Every level of `Code` as a grey pixel through `program`: the table of results, or nil as soon as one
  /// comes out with unequal channels.
  private func greyTable<Code: FixedWidthInteger & UnsignedInteger>(
    _ program: (SIMD3<Code>) -> SIMD3<Code>
  ) -> [Code]? {
    var table: [Code] = []
    table.reserveCapacity(1 << Code.bitWidth)
    for level in 0..<(1 << Code.bitWidth) {
      let value = Code(level)
      let result = program(SIMD3(value, value, value))
      guard result.x == result.y, result.y == result.z else { return nil }
      table.append(result.x)
    }
    return table
  }
}
