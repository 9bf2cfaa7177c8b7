import Raw

extension ColourProgram {
  /// The program as `RawRows` runs it on a raw's 16-bit linear codes, with 8-bit output codes: its
  /// 16-bit tables composed with the sRGB transfer a developed raw is encoded with before them
  /// (`SRGBTransfer16.encode`) and with the quantising to 8 bits after them
  /// (`RawStill.eightBitCodes`), entry by entry, so every code is the one the 16-bit way gives.
  var rawColour: RawRows.Colour {
    let encode = SRGBTransfer16.encode
    let quantise = RawStill.eightBitCodes
    switch self {
    case .identity:
      let table = encode.map { quantise[Int($0)] }
      return .tables(table + table + table)
    case .perChannel(let tables):
      let table16 = tables.table16
      return .tables(
        (0..<3).flatMap { channel in
          encode.map { quantise[Int(table16[channel * 65536 + Int($0)])] }
        })
    case .mixing(let tables):
      let input16 = tables.input16
      let output = tables.output16
      return .mix(
        input: (0..<3).flatMap { channel in encode.map { input16[channel * 65536 + Int($0)] } },
        matrix: tables.matrix, output: output.values.map { quantise[Int($0)] },
        scale: output.scale, squareRootIndex: output.indexing == .squareRoot)
    }
  }
}
