import CRowKernels

/// A per-pixel colour transform for packed RGB pixels (rgb24, or 16-bit RGB) in the caller's own
/// buffers: the same arithmetic and SIMD paths as `Image.applyingLookupTables(_:colourBands:)` and
/// `Image.applyingChannelMix(inputTables:matrix:outputTables:scale:squareRootIndex:)` on 8-bit and
/// 16-bit RGB images, without a libvips image (`CRowKernels`'s `ColourRows.h`).
///
/// Read-only once made: any number of threads may apply it at once.
public final class ColourRows: @unchecked Sendable {
  /// The C transform (`FDColourRows *`), for other code of this module.
  let pointer: OpaquePointer

  /// Bytes per sample of the pixels transformed: 1 (rgb24) or 2 (16-bit RGB, ``apply16(_:_:pixels:)``).
  public var sampleBytes: Int { Int(fd_colour_rows_sample_bytes(pointer)) }

  /// Per-channel lookup: channel `c` of every pixel becomes `lookupTables[c * 256 + value]`.
  ///
  /// - Parameter lookupTables: 3 × 256 entries, R, G, B.
  /// - Throws: ``RowKernelError`` when the tables do not hold 768 entries.
  public init(lookupTables: [UInt8]) throws {
    guard lookupTables.count == 3 * 256 else {
      throw RowKernelError("3 8-bit tables need \(3 * 256) entries, got \(lookupTables.count)")
    }
    pointer = try Self.made(
      "lookup tables", lookupTables.withUnsafeBufferPointer { fd_colour_rows_lut8($0.baseAddress) })
  }

  /// Channel mixing: `linear = inputTables[c * 256 + value]`, `mixed = matrix × linear`, then
  /// `outputTables[c * count + clamp(Int(x × scale + 0.5), 0, count − 1)]` where `count` is a third of
  /// `outputTables` and `x` is `mixed`, or its square root when `squareRootIndex` is set.
  ///
  /// - Parameters:
  ///   - inputTables: 3 × 256 floats, R, G, B.
  ///   - matrix: a row-major 3 × 3 matrix.
  ///   - outputTables: 3 × `count` codes, R, G, B (`count` ≥ 1).
  ///   - scale: the factor from a mixed value to an output table position.
  ///   - squareRootIndex: whether the position comes from the mixed value's square root.
  /// - Throws: ``RowKernelError`` for tables or a matrix of the wrong size.
  public init(
    inputTables: [Float], matrix: [Float], outputTables: [UInt8], scale: Float,
    squareRootIndex: Bool
  ) throws {
    pointer = try Self.mixing(
      inputTables, entries: 256, matrix: matrix, outputTables, scale: scale,
      squareRootIndex: squareRootIndex, what: "channel mixing", make: fd_colour_rows_mix8)
  }

  /// Per-channel lookup on 16-bit RGB: channel `c` of every pixel becomes
  /// `lookupTables16[c * 65536 + value]`.
  ///
  /// - Parameter lookupTables16: 3 × 65536 entries, R, G, B.
  /// - Throws: ``RowKernelError`` when the tables do not hold 3 × 65536 entries.
  public init(lookupTables16: [UInt16]) throws {
    guard lookupTables16.count == 3 * 65536 else {
      throw RowKernelError(
        "3 16-bit tables need \(3 * 65536) entries, got \(lookupTables16.count)")
    }
    pointer = try Self.made(
      "16-bit lookup tables",
      lookupTables16.withUnsafeBufferPointer { fd_colour_rows_lut16($0.baseAddress) })
  }

  /// Channel mixing on 16-bit RGB, as ``init(inputTables:matrix:outputTables:scale:squareRootIndex:)``
  /// with 3 × 65536 `inputTables` and 16-bit `outputTables`.
  ///
  /// - Throws: ``RowKernelError`` for tables or a matrix of the wrong size.
  public init(
    inputTables16: [Float], matrix: [Float], outputTables16: [UInt16], scale: Float,
    squareRootIndex: Bool
  ) throws {
    pointer = try Self.mixing(
      inputTables16, entries: 65536, matrix: matrix, outputTables16, scale: scale,
      squareRootIndex: squareRootIndex, what: "16-bit channel mixing", make: fd_colour_rows_mix16)
  }

  deinit { fd_colour_rows_free(pointer) }

  /// The parts of this transform when it is a 16-bit channel mix, for code that runs the mix within a
  /// pass of its own (the tone mapper's mixed rows); nil for other transforms. Its tables are this
  /// object's own copies: valid only while it lives.
  public var mix16Parts: FDColourMix16? {
    var parts = FDColourMix16()
    return fd_colour_rows_mix16_parts(pointer, &parts) != 0 ? parts : nil
  }

  /// Transforms `pixels` packed 16-bit RGB pixels (6 bytes each) from `input` to `output`, which must
  /// not overlap; nothing for 8-bit rows (``sampleBytes`` 1).
  public func apply16(
    _ input: UnsafePointer<UInt16>, _ output: UnsafeMutablePointer<UInt16>, pixels: Int
  ) {
    Self.inPieces(pixels) { done, count in
      fd_colour_rows_apply16(pointer, input + 3 * done, output + 3 * done, count)
    }
  }

  /// Transforms `pixels` packed RGB pixels (3 bytes each) from `input` to `output`, which must not
  /// overlap; no alignment is needed; nothing for 16-bit rows (``sampleBytes`` 2).
  public func apply(
    _ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, pixels: Int
  ) {
    Self.inPieces(pixels) { done, count in
      fd_colour_rows_apply(pointer, input + 3 * done, output + 3 * done, count)
    }
  }

  /// Transforms `pixels` pixels held as three planes, `input` R, G and B bytes to `output`'s (no
  /// plane may overlap another), with the codes ``apply(_:_:pixels:)`` gives packed pixels. Nothing
  /// happens unless both hold three planes.
  public func apply(
    planes input: [UnsafePointer<UInt8>], into output: [UnsafeMutablePointer<UInt8>], pixels: Int
  ) {
    guard input.count == 3, output.count == 3 else { return }
    Self.inPieces(pixels) { done, count in
      let sources: [UnsafePointer<UInt8>?] = input.map { $0 + done }
      let targets: [UnsafeMutablePointer<UInt8>?] = output.map { $0 + done }
      sources.withUnsafeBufferPointer { sources in
        targets.withUnsafeBufferPointer { targets in
          fd_colour_rows_apply_planes(pointer, sources.baseAddress, targets.baseAddress, count)
        }
      }
    }
  }

  /// Calls `body` with the first pixel and the length of each piece of `pixels` pixels: the C side
  /// counts pixels in an Int32, so longer runs go in pieces.
  private static func inPieces(_ pixels: Int, _ body: (Int, Int32) -> Void) {
    let piece = 1 << 24
    var done = 0
    while done < pixels {
      let count = min(piece, pixels - done)
      body(done, Int32(count))
      done += count
    }
  }

  /// The mix of `inputs` (3 × `entries` floats), `matrix` and `outputs` (3 equal tables of codes)
  /// made by `make` (fd_colour_rows_mix8 or fd_colour_rows_mix16), after the sizes are checked.
  private static func mixing<Code>(
    _ inputs: [Float], entries: Int, matrix: [Float], _ outputs: [Code], scale: Float,
    squareRootIndex: Bool, what: String,
    make: (UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafePointer<Code>?, Int32, Float, Int32)
      -> OpaquePointer?
  ) throws -> OpaquePointer {
    guard inputs.count == 3 * entries, matrix.count == 9, outputs.count % 3 == 0,
      !outputs.isEmpty, outputs.count / 3 <= Int(Int32.max)
    else {
      throw RowKernelError(
        "\(what) needs 3 × \(entries) inputs, a 3 × 3 matrix and 3 equal output tables, got "
          + "\(inputs.count) inputs, \(matrix.count) matrix entries and \(outputs.count) outputs")
    }
    let count = Int32(outputs.count / 3)
    let rows = inputs.withUnsafeBufferPointer { input in
      matrix.withUnsafeBufferPointer { matrix in
        outputs.withUnsafeBufferPointer { output in
          make(
            input.baseAddress, matrix.baseAddress, output.baseAddress, count, scale,
            squareRootIndex ? 1 : 0)
        }
      }
    }
    return try made(what, rows)
  }

  private static func made(_ what: String, _ pointer: OpaquePointer?) throws -> OpaquePointer {
    guard let pointer else { throw RowKernelError("no memory for the \(what) of colour rows") }
    return pointer
  }
}
