import CRowKernels

/// The end of a camera raw's development and its colour stages in one pass over LibRaw's working
/// picture, into packed 8-bit RGB in the same memory (`CRowKernels`'s `RawRows.h`): LibRaw's own
/// conversion out of the camera's colours (the same integers as its `convert_to_rgb`), then per-channel
/// tables or the channel mix of `Image.applyingChannelMix(inputTables:matrix:outputTables:scale:squareRootIndex:)`,
/// indexed by LibRaw's 16-bit linear codes, with 8-bit output codes. No libvips image is involved.
public enum RawRows {
  /// How a pixel's three 16-bit linear codes `v` (after the camera conversion) become 8-bit codes.
  public enum Colour: Sendable {
    /// Per-channel tables: 3 × 65536 codes, `tables[c * 65536 + v]`.
    case tables([UInt8])
    /// The channel mix: `linear = input[c * 65536 + v]` (3 × 65536 floats), `mixed = matrix ×
    /// linear` (row-major 3 × 3), then `output[c * count + clamp(Int(x × scale + 0.5), 0, count − 1)]`
    /// where `count` is a third of `output` and `x` is `mixed`, or its square root when
    /// `squareRootIndex` is set.
    case mix(input: [Float], matrix: [Float], output: [UInt8], scale: Float, squareRootIndex: Bool)
  }

  /// Converts `pixels` pixels of four 16-bit samples (red, green, blue, and a fourth that is ignored)
  /// at `picture` in place into packed 8-bit RGB: three bytes a pixel from `picture`'s first byte.
  ///
  /// The camera conversion is LibRaw's for sRGB output: `v_c = clamp(Int(camera[3c] · r +
  /// camera[3c + 1] · g + camera[3c + 2] · b), 0, 65535)` in `Float`, truncated toward zero.
  ///
  /// - Parameters:
  ///   - camera: LibRaw's camera-to-sRGB matrix (`rgb_cam`), row-major 3 × 3.
  ///   - colour: the tables that turn the converted codes into output codes.
  /// - Throws: ``RawError`` for tables or matrices of the wrong size, or when out of memory (the
  ///   picture is then untouched).
  public static func convert(
    _ picture: UnsafeMutablePointer<UInt16>, pixels: Int, camera: [Float], colour: Colour
  ) throws {
    guard camera.count == 9 else {
      throw RawError("the camera conversion needs a 3 × 3 matrix, got \(camera.count) entries")
    }
    let status: Int32
    switch colour {
    case .tables(let tables):
      guard tables.count == 3 * 65536 else {
        throw RawError("3 tables of 65536 codes need \(3 * 65536) entries, got \(tables.count)")
      }
      status = camera.withUnsafeBufferPointer { camera in
        tables.withUnsafeBufferPointer { tables in
          fd_raw_rows_convert(
            picture, pixels, camera.baseAddress, 0, tables.baseAddress, nil, nil, nil, 0, 0, 0)
        }
      }
    case .mix(let input, let matrix, let output, let scale, let squareRootIndex):
      guard input.count == 3 * 65536, matrix.count == 9, output.count % 3 == 0, !output.isEmpty,
        output.count / 3 <= Int(Int32.max)
      else {
        throw RawError(
          "channel mixing needs 3 × 65536 inputs, a 3 × 3 matrix and 3 equal output tables, got "
            + "\(input.count) inputs, \(matrix.count) matrix entries and \(output.count) outputs")
      }
      status = camera.withUnsafeBufferPointer { camera in
        input.withUnsafeBufferPointer { input in
          matrix.withUnsafeBufferPointer { matrix in
            output.withUnsafeBufferPointer { output in
              fd_raw_rows_convert(
                picture, pixels, camera.baseAddress, 1, nil, input.baseAddress,
                matrix.baseAddress, output.baseAddress, Int32(output.count / 3), scale,
                squareRootIndex ? 1 : 0)
            }
          }
        }
      }
    }
    guard status == 0 else { throw RawError("no memory for the tables of a raw's colour pass") }
  }
}
