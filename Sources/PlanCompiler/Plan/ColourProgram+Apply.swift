/// The reference CPU path: what the fused kernel must compute, written plainly in Swift.
extension ColourProgram {
  /// Channel layouts of packed 8-bit pixel buffers.
  public enum PixelLayout: Sendable, Hashable {
    /// R, G, B bytes per pixel.
    case rgb8
    /// R, G, B, A bytes per pixel; alpha is left untouched.
    case rgba8

    /// Bytes per pixel.
    public var stride: Int { self == .rgb8 ? 3 : 4 }
  }

  /// One 8-bit RGB pixel through the program.
  public func apply(_ pixel: SIMD3<UInt8>) -> SIMD3<UInt8> {
    switch self {
    case .identity:
      return pixel
    case .perChannel(let tables):
      return SIMD3(
        tables.table8[Int(pixel.x)], tables.table8[256 + Int(pixel.y)],
        tables.table8[512 + Int(pixel.z)])
    case .mixing(let tables):
      let linear = SIMD3(
        tables.input8[Int(pixel.x)], tables.input8[256 + Int(pixel.y)],
        tables.input8[512 + Int(pixel.z)])
      let mixed = ColourProgram.mix(linear, tables.matrix)
      let output = tables.output8
      return SIMD3(
        output.values[output.index(mixed.x)], output.values[output.count + output.index(mixed.y)],
        output.values[2 * output.count + output.index(mixed.z)])
    }
  }

  /// One 16-bit RGB pixel through the program (builds the 16-bit tables on first use).
  public func apply(_ pixel: SIMD3<UInt16>) -> SIMD3<UInt16> {
    switch self {
    case .identity:
      return pixel
    case .perChannel(let tables):
      let table = tables.table16
      return SIMD3(table[Int(pixel.x)], table[65536 + Int(pixel.y)], table[131072 + Int(pixel.z)])
    case .mixing(let tables):
      let input = tables.input16
      let linear = SIMD3(
        input[Int(pixel.x)], input[65536 + Int(pixel.y)], input[131072 + Int(pixel.z)])
      let mixed = ColourProgram.mix(linear, tables.matrix)
      let output = tables.output16
      return SIMD3(
        output.values[output.index(mixed.x)], output.values[output.count + output.index(mixed.y)],
        output.values[2 * output.count + output.index(mixed.z)])
    }
  }

  /// Every whole pixel of a packed 8-bit buffer through the program, in place; alpha and any trailing partial
  /// pixel are left untouched.
  public func apply(to pixels: inout [UInt8], layout: PixelLayout) {
    if case .identity = self { return }
    let stride = layout.stride
    var start = 0
    while start + stride <= pixels.count {
      let result = apply(SIMD3(pixels[start], pixels[start + 1], pixels[start + 2]))
      pixels[start] = result.x
      pixels[start + 1] = result.y
      pixels[start + 2] = result.z
      start += stride
    }
  }

  /// `matrix · linear` in `Float`, each row summed left to right as the kernel does.
  private static func mix(_ linear: SIMD3<Float>, _ matrix: [Float]) -> SIMD3<Float> {
    SIMD3(
      matrix[0] * linear.x + matrix[1] * linear.y + matrix[2] * linear.z,
      matrix[3] * linear.x + matrix[4] * linear.y + matrix[5] * linear.z,
      matrix[6] * linear.x + matrix[7] * linear.y + matrix[8] * linear.z)
  }
}

extension Plan {
  /// One 8-bit RGB pixel through the plan's colour program (auto white balance gains taken as given).
  public func apply(_ pixel: SIMD3<UInt8>, autoGains: SIMD3<Double> = SIMD3(1, 1, 1)) -> SIMD3<
    UInt8
  > {
    colorProgram(autoGains: autoGains).apply(pixel)
  }

  /// A packed RGB8 or RGBA8 buffer through the plan's colour program, in place; alpha untouched.
  public func apply(
    to pixels: inout [UInt8], layout: ColourProgram.PixelLayout,
    autoGains: SIMD3<Double> = SIMD3(1, 1, 1)
  ) {
    colorProgram(autoGains: autoGains).apply(to: &pixels, layout: layout)
  }
}
