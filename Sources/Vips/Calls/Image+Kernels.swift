import CFrameKernels
import CVips

/// FrameDial's fused colour kernels as nodes of the libvips graph (see `CFrameKernels`).
///
/// Each replaces a chain of generic libvips operations (decode, gains, matrix, encode, curves, contrast)
/// with one pass over the pixels; libvips still tiles and threads the work.
extension Image {
  /// Per-channel lookup: colour band `c` becomes `tables[c * entries + value]` (`entries` = 256 for 8-bit
  /// images, 65536 for 16-bit); bands after `colourBands` (alpha) are copied.
  public func applyingLookupTables(_ tables: [UInt8], colourBands: Int) throws -> Image {
    try lookingUp(tables, colourBands: colourBands, imageFormat: .uchar, fd_kernel_lut8)
  }

  /// Per-channel lookup on a 16-bit image with 65536-entry tables.
  public func applyingLookupTables(_ tables: [UInt16], colourBands: Int) throws -> Image {
    try lookingUp(tables, colourBands: colourBands, imageFormat: .ushort, fd_kernel_lut16)
  }

  /// Channel mixing in one pass: `linear = inputTables[c][value]`, `mixed = matrix × linear`, then
  /// `outputTables[c][clamp(Int(x × scale + 0.5), 0, count − 1)]` where `x` is `mixed`, or its square root
  /// when `squareRootIndex` is set. Tables are channel-major; the output tables hold 8-bit values for 8-bit
  /// images (`[UInt8]`) and 16-bit values for 16-bit ones (`[UInt16]`).
  public func applyingChannelMix<Code: FixedWidthInteger & UnsignedInteger>(
    inputTables: [Float], matrix: [Float], outputTables: [Code], scale: Float,
    squareRootIndex: Bool = false
  ) throws -> Image {
    let entries = format == .uchar ? 256 : 65536
    guard (format == .uchar && Code.bitWidth == 8) || (format == .ushort && Code.bitWidth == 16)
    else {
      throw VipsError("channel mixing needs \(Code.bitWidth)-bit tables to match a \(format) image")
    }
    guard bands >= 3, inputTables.count == 3 * entries, matrix.count == 9,
      outputTables.count % 3 == 0, !outputTables.isEmpty
    else {
      throw VipsError(
        "channel mixing needs 3 colour bands, 3 × \(entries) inputs and a 3 × 3 matrix")
    }
    let count = outputTables.count / 3
    return try kernelOutput("channel mixing") { output in
      inputTables.withUnsafeBufferPointer { input in
        matrix.withUnsafeBufferPointer { matrix in
          outputTables.withUnsafeBytes { tables in
            fd_kernel_mix(
              pointer, &output, Int32(entries), input.baseAddress, matrix.baseAddress,
              tables.baseAddress, Int32(count), scale, squareRootIndex ? 1 : 0)
          }
        }
      }
    }
  }

  /// The image resized to `width × height` by FrameDial's bilinear kernel (8-bit, pixel centres onto
  /// pixel centres, edge pixels repeated).
  ///
  /// With a `window` (left, top, width, height in real pixel coordinates, pixel `i` covering `i … i + 1`),
  /// that part of the image is what is resized: output column `x` samples the input at
  /// `left + (x + 0.5) · window.width / width − 0.5`, clamped to the image (likewise rows).
  public func resizedBilinear(
    width: Int, height: Int,
    window: (left: Double, top: Double, width: Double, height: Double)? = nil
  ) throws -> Image {
    guard format == .uchar else {
      throw VipsError("the bilinear kernel needs an 8-bit image, not \(format)")
    }
    guard width > 0, height > 0 else { throw VipsError("cannot resize to \(width)×\(height)") }
    let area = window ?? (0, 0, Double(self.width), Double(self.height))
    return try kernelOutput("bilinear resize") { output in
      fd_kernel_resample_bilinear8(
        pointer, &output, Int32(width), Int32(height), area.left, area.top, area.width,
        area.height)
    }
  }

  /// The image reduced to `width` columns (at most its own) by FrameDial's horizontal Lanczos 3 kernel
  /// (8-bit, 1 … 4 bands, every band filtered alike; see `fd_kernel_reduceh_lanczos3`); rows unchanged.
  public func reducedHorizontally(toWidth width: Int) throws -> Image {
    guard format == .uchar else {
      throw VipsError("the Lanczos 3 reduction needs an 8-bit image, not \(format)")
    }
    guard width > 0, width <= self.width else {
      throw VipsError("cannot reduce a width of \(self.width) to \(width)")
    }
    return try kernelOutput("Lanczos 3 reduction") { output in
      fd_kernel_reduceh_lanczos3(pointer, &output, Int32(width))
    }
  }

  /// The 16-bit image (1 … 4 bands, every band filtered alike) reduced to `width` × `height` (at most
  /// its own size) by FrameDial's Lanczos 3 kernels, rows first (`fd_kernel_reducev_lanczos3_16`, then
  /// `fd_kernel_reduceh_lanczos3_16`): the horizontal kernel's filter, stretched by each axis's shrink.
  public func reducedByLanczos3(toWidth width: Int, height: Int) throws -> Image {
    guard format == .ushort else {
      throw VipsError("the 16-bit Lanczos 3 reduction needs a 16-bit image, not \(format)")
    }
    guard width > 0, width <= self.width, height > 0, height <= self.height else {
      throw VipsError(
        "cannot reduce \(self.width)×\(self.height) pixels to \(width)×\(height)")
    }
    let rows =
      height < self.height
      ? try kernelOutput("Lanczos 3 reduction") { output in
        fd_kernel_reducev_lanczos3_16(pointer, &output, Int32(height))
      } : self
    guard width < self.width else { return rows }
    return try rows.kernelOutput("Lanczos 3 reduction") { output in
      fd_kernel_reduceh_lanczos3_16(rows.pointer, &output, Int32(width))
    }
  }

  /// Per-channel lookup through `kernel` (`fd_kernel_lut8` or `fd_kernel_lut16`) with tables of
  /// `Entry.bitWidth`-bit entries, one for each of their 2^bits values, on an image of `imageFormat`.
  private func lookingUp<Entry: FixedWidthInteger & UnsignedInteger>(
    _ tables: [Entry], colourBands: Int, imageFormat: BandFormat,
    _ kernel: (
      UnsafeMutablePointer<VipsImage>?, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>?,
      UnsafePointer<Entry>?, Int32
    ) -> Int32
  ) throws -> Image {
    let bits = Entry.bitWidth
    guard format == imageFormat else {
      throw VipsError(
        "\(bits)-bit tables need \(bits == 8 ? "an" : "a") \(bits)-bit image, not \(format)")
    }
    let entries = 1 << bits
    guard tables.count == colourBands * entries else {
      throw VipsError(
        "\(colourBands) \(bits)-bit tables need \(colourBands * entries) entries, got \(tables.count)"
      )
    }
    return try kernelOutput("lookup tables") { output in
      tables.withUnsafeBufferPointer {
        kernel(pointer, &output, $0.baseAddress, Int32(colourBands))
      }
    }
  }

  private func kernelOutput(
    _ what: String, _ body: (inout UnsafeMutablePointer<VipsImage>?) -> Int32
  ) throws -> Image {
    try Vips.ensureStarted()
    var output: UnsafeMutablePointer<VipsImage>?
    guard body(&output) == 0, let output else { throw VipsError.fromLibvips("\(what) failed") }
    return Image(owning: output)
  }
}
