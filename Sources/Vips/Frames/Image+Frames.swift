import CVips
import Dispatch
import Foundation
import RowKernels
import Synchronization

/// The layout of a frame in memory: size, bands per pixel, bytes per sample (8-bit or 16-bit samples
/// in native byte order), and bytes from one row to the next.
public struct FrameLayout: Sendable, Equatable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Samples (bands) per pixel: 3 for RGB, 4 for RGBA or BGRA.
  public var bands: Int
  /// Bytes per sample: 1 for 8-bit frames, 2 for 16-bit frames (native byte order).
  public var sampleBytes: Int
  /// Bytes from the start of one row to the start of the next (at least `width × pixelBytes`).
  public var rowStride: Int

  /// Creates a layout of `sampleBytes` (1 or 2) per sample; `rowStride` defaults to packed rows.
  public init(width: Int, height: Int, bands: Int, sampleBytes: Int = 1, rowStride: Int? = nil) {
    self.width = width
    self.height = height
    self.bands = bands
    self.sampleBytes = sampleBytes
    self.rowStride = rowStride ?? width * bands * sampleBytes
  }

  /// Bytes of one pixel.
  public var pixelBytes: Int { bands * sampleBytes }
  /// Bytes of one packed row.
  public var packedRowBytes: Int { width * pixelBytes }
  /// True when rows follow each other with no padding.
  public var isPacked: Bool { rowStride == packedRowBytes }
  /// The bytes a buffer must hold: every row at its stride, the last one packed.
  public var requiredBytes: Int { height == 0 ? 0 : rowStride * (height - 1) + packedRowBytes }
  /// The libvips sample format of the layout: `.uchar` or `.ushort`.
  public var bandFormat: BandFormat { sampleBytes == 2 ? .ushort : .uchar }

  /// Checks the layout against a buffer of `count` bytes.
  public func validate(bufferBytes count: Int) throws {
    guard width > 0, height > 0 else { throw VipsError("frame size \(width)×\(height) is empty") }
    guard (1...4).contains(bands) else { throw VipsError("frames have 1 … 4 bands, not \(bands)") }
    guard sampleBytes == 1 || sampleBytes == 2 else {
      throw VipsError("frame samples are 1 or 2 bytes, not \(sampleBytes)")
    }
    guard rowStride >= packedRowBytes else {
      throw VipsError("row stride \(rowStride) is shorter than a row of \(packedRowBytes) bytes")
    }
    guard count >= requiredBytes else {
      throw VipsError(
        "frame buffer holds \(count) bytes; \(width)×\(height)×\(bands)"
          + (sampleBytes == 2 ? " 16-bit" : "") + " needs \(requiredBytes)")
    }
  }
}

extension RowKernels.YUV420Layout {
  /// The packed RGB frame the conversion reads and writes: rgb24 at 8 bits, 16-bit RGB at 10.
  public var rgbLayout: FrameLayout {
    FrameLayout(width: width, height: height, bands: 3, sampleBytes: sampleBytes)
  }
}

extension Image {
  /// An image that reads a caller's 8-bit or 16-bit frame in place, without copying (16-bit frames are
  /// `ushort` images).
  ///
  /// The memory must stay valid and unchanged for as long as this image or any image made from it is
  /// alive (FrameDial's frame renderer scopes both to one frame). Rows padded to a stride that is a whole
  /// number of pixels are read in place too; other strides are first packed into one copy, held by the image.
  public convenience init(wrapping frame: UnsafeRawBufferPointer, layout: FrameLayout) throws {
    try Vips.ensureStarted()
    try layout.validate(bufferBytes: frame.count)
    guard let base = frame.baseAddress else { throw VipsError("frame buffer has no memory") }
    let format = layout.bandFormat
    if layout.isPacked {
      self.init(
        owning: try Image.memoryImage(base, layout.width, layout.height, layout.bands, format))
    } else if layout.rowStride % layout.pixelBytes == 0 {
      let wide = Image(
        owning: try Image.memoryImage(
          base, layout.rowStride / layout.pixelBytes, layout.height, layout.bands, format))
      let area = try wide.extractArea(left: 0, top: 0, width: layout.width, height: layout.height)
      self.init(retaining: area)
    } else {
      let packed = PackedCopy(frame, layout)
      let pointer = try packed.bytes.withUnsafeBytes { raw -> UnsafeMutablePointer<VipsImage> in
        guard let copyBase = raw.baseAddress else { throw VipsError("frame buffer has no memory") }
        return try Image.memoryImage(
          copyBase, layout.width, layout.height, layout.bands, format)
      }
      self.init(owning: pointer, keepAlive: packed)
    }
  }

  private static func memoryImage(
    _ base: UnsafeRawPointer, _ width: Int, _ height: Int, _ bands: Int, _ format: BandFormat
  ) throws -> UnsafeMutablePointer<VipsImage> {
    let (sampleBytes, raw) = format == .ushort ? (2, VIPS_FORMAT_USHORT) : (1, VIPS_FORMAT_UCHAR)
    guard
      let image = vips_image_new_from_memory(
        base, width * height * bands * sampleBytes, Int32(width), Int32(height), Int32(bands), raw)
    else { throw VipsError.fromLibvips("cannot wrap a \(width)×\(height) frame") }
    return image
  }

  /// Computes every pixel of this image into a caller's buffer laid out as `layout` (8-bit images into
  /// 8-bit layouts, 16-bit into 16-bit).
  ///
  /// With `.bands` (the default) the frame is split into one horizontal band per thread
  /// (``Vips/Configuration/threads``, by default the number of cores); each thread has libvips compute
  /// its band, strip by strip, straight into the caller's rows — no intermediate copy and no per-frame
  /// thread pool, which suits FrameDial's short fused graphs. `.libvipsSink` hands the whole frame to
  /// libvips's own sink and thread pool instead, which suits long chains of generic operations (their
  /// intermediate results are shared through libvips's per-thread buffer cache). Rows padded to a stride
  /// that is not a whole number of pixels are always filled by libvips strip by strip. The image's size
  /// and bands must match the layout.
  public func render(
    into buffer: UnsafeMutableRawBufferPointer, layout: FrameLayout,
    strategy: FrameRenderStrategy = .bands
  ) throws {
    _ = try render(into: buffer, layout: layout, strategy: strategy, stopper: nil)
  }

  /// Computes this image into a caller's buffer like ``render(into:layout:strategy:)`` with
  /// `.bands`, asking `abandon` before each strip after a band's first whether to give the frame up.
  ///
  /// `abandon` receives the fraction of its band already written (0 ..< 1) and is called from the render
  /// threads, possibly at the same time. Once it answers true, every band stops before its next strip.
  /// Frames whose row stride is not a whole number of pixels are always computed whole.
  ///
  /// - Returns: true when every row was computed; false when the frame was abandoned (the rows written so
  ///   far hold finished pixels, the others are as they were).
  public func render(
    into buffer: UnsafeMutableRawBufferPointer, layout: FrameLayout,
    abandonWhen abandon: @escaping @Sendable (_ fractionDone: Double) -> Bool
  ) throws -> Bool {
    try render(into: buffer, layout: layout, strategy: .bands, stopper: BandStopper(abandon))
  }

  private func render(
    into buffer: UnsafeMutableRawBufferPointer, layout: FrameLayout,
    strategy: FrameRenderStrategy, stopper: BandStopper?
  ) throws -> Bool {
    try layout.validate(bufferBytes: buffer.count)
    guard width == layout.width, height == layout.height, bands == layout.bands else {
      throw VipsError(
        "image is \(width)×\(height)×\(bands) but the frame buffer is "
          + "\(layout.width)×\(layout.height)×\(layout.bands)")
    }
    guard format == layout.bandFormat else {
      throw VipsError(
        "the frame buffer holds \(layout.bandFormat.rawValue) samples; the image is \(format.rawValue)"
      )
    }
    guard let base = buffer.baseAddress else { throw VipsError("frame buffer has no memory") }
    let bands = max(
      1, min(height, Vips.configuration?.threads ?? ProcessInfo.processInfo.activeProcessorCount))
    if strategy == .libvipsSink && layout.isPacked {
      let target = try Image.memoryImage(base, width, height, self.bands, format)
      defer { g_object_unref(target) }
      guard vips_image_write(pointer, target) == 0 else {
        throw VipsError.fromLibvips("rendering the frame failed")
      }
      return true
    }
    guard strategy == .bands, layout.rowStride % layout.pixelBytes == 0 else {
      guard fd_write_strided(pointer, base, layout.rowStride) == 0 else {
        throw VipsError.fromLibvips("rendering the frame failed")
      }
      return true
    }
    // One horizontal band per thread, each computed on its own thread straight into the caller's rows,
    // in strips of about 256 KB of output.
    let stripRows = Int32(max(8, min(height, (256 << 10) / max(1, layout.packedRowBytes))))
    let failures = Atomic<Int>(0)
    let rowsPerBand = (height + bands - 1) / bands
    let address = UInt(bitPattern: base)
    let stop: FDBandStop? =
      stopper == nil
      ? nil
      : { context, done, total in
        guard let context else { return 0 }
        return Unmanaged<BandStopper>.fromOpaque(context).takeUnretainedValue()
          .shouldStop(done: done, total: total) ? 1 : 0
      }
    withExtendedLifetime(stopper) {
      DispatchQueue.concurrentPerform(iterations: bands) { band in
        let top = band * rowsPerBand
        let rows = min(rowsPerBand, height - top)
        guard rows > 0,
          let start = UnsafeMutableRawPointer(bitPattern: address + UInt(top * layout.rowStride))
        else { return }
        let context = stopper.map { Unmanaged.passUnretained($0).toOpaque() }
        let outcome = fd_compute_band(
          pointer, start, layout.rowStride, Int32(top), Int32(rows), stripRows, stop, context)
        if outcome < 0 { failures.add(1, ordering: .relaxed) }
      }
    }
    guard failures.load(ordering: .relaxed) == 0 else {
      throw VipsError.fromLibvips("rendering the frame failed")
    }
    return !(stopper?.stopped.load(ordering: .relaxed) ?? false)
  }
}

/// Decides, for all bands of one frame together, whether to abandon it.
private final class BandStopper: Sendable {
  let abandon: @Sendable (Double) -> Bool
  let stopped = Atomic<Bool>(false)

  init(_ abandon: @escaping @Sendable (Double) -> Bool) { self.abandon = abandon }

  /// True once any band's question was answered yes.
  func shouldStop(done: Int32, total: Int32) -> Bool {
    if stopped.load(ordering: .relaxed) { return true }
    guard abandon(Double(done) / Double(max(1, total))) else { return false }
    stopped.store(true, ordering: .relaxed)
    return true
  }
}

/// How ``Image/render(into:layout:strategy:)`` schedules the work.
public enum FrameRenderStrategy: Sendable {
  /// One band per thread, computed strip by strip on the calling threads.
  case bands
  /// libvips's own sink and thread pool.
  case libvipsSink
}

/// A packed copy of a frame whose row stride is not a whole number of pixels.
private final class PackedCopy: @unchecked Sendable {
  let bytes: [UInt8]

  init(_ frame: UnsafeRawBufferPointer, _ layout: FrameLayout) {
    var packed = [UInt8](repeating: 0, count: layout.packedRowBytes * layout.height)
    packed.withUnsafeMutableBytes { target in
      for row in 0..<layout.height {
        let source = UnsafeRawBufferPointer(
          rebasing: frame[
            (row * layout.rowStride)..<(row * layout.rowStride + layout.packedRowBytes)])
        UnsafeMutableRawBufferPointer(
          rebasing: target[(row * layout.packedRowBytes)..<((row + 1) * layout.packedRowBytes)]
        ).copyMemory(from: source)
      }
    }
    bytes = packed
  }
}
