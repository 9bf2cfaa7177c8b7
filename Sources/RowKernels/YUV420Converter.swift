import CRowKernels
import Dispatch
import Foundation
import Synchronization

/// The colour matrix between Y′CbCr and R′G′B′.
public enum YUVMatrix: String, Sendable, CaseIterable {
  /// ITU-R BT.709 (HD video).
  case bt709
  /// ITU-R BT.601 (SD video).
  case bt601
  /// ITU-R BT.2020 non-constant luminance (UHD and HDR video): Kr 0.2627, Kb 0.0593.
  case bt2020

  /// The matrix's number in FrameDial's C conversion: 0 BT.601, 1 BT.709, 2 BT.2020.
  var kernelCode: Int32 {
    switch self {
    case .bt601: 0
    case .bt709: 1
    case .bt2020: 2
    }
  }

  /// FFmpeg's default for untagged video: BT.601 below 720 lines, BT.709 at or above.
  public static func standard(forHeight height: Int) -> YUVMatrix {
    height >= 720 ? .bt709 : .bt601
  }
}

/// The code range of Y′CbCr samples.
public enum YUVRange: String, Sendable, CaseIterable {
  /// TV (limited) range: 16 … 235 for luma and 16 … 240 for chroma at 8 bits (× 4 at 10 bits).
  case tv
  /// PC (full) range: every code.
  case pc
}

/// The size, depth and colour of YUV 4:2:0 planar frames (`yuv420p`, `yuv420p10le`): a full-size Y
/// plane, then U and V planes of half the width and height (rounded up), samples of 1 byte at 8 bits and
/// 2 bytes (little-endian) at 10.
public struct YUV420Layout: Sendable, Equatable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Bits per sample: 8 or 10.
  public var depth: Int
  /// The colour matrix.
  public var matrix: YUVMatrix
  /// The code range.
  public var range: YUVRange

  /// A layout of `width × height` frames of `depth` bits with `matrix` and `range`.
  public init(width: Int, height: Int, depth: Int, matrix: YUVMatrix, range: YUVRange) {
    self.width = width
    self.height = height
    self.depth = depth
    self.matrix = matrix
    self.range = range
  }

  /// Width of the chroma planes.
  public var chromaWidth: Int { (width + 1) / 2 }
  /// Height of the chroma planes.
  public var chromaHeight: Int { (height + 1) / 2 }
  /// Bytes per sample: 1 at 8 bits, 2 at 10.
  public var sampleBytes: Int { depth > 8 ? 2 : 1 }
  /// Bytes of the packed Y plane.
  public var lumaBytes: Int { width * height * sampleBytes }
  /// Bytes of one packed chroma plane.
  public var chromaBytes: Int { chromaWidth * chromaHeight * sampleBytes }
  /// Bytes of one packed frame: Y, U, V planes one after the other.
  public var frameBytes: Int { lumaBytes + 2 * chromaBytes }
  /// Bytes of one row of the packed RGB frame the conversion reads and writes: rgb24 at 8 bits,
  /// 16-bit RGB at 10.
  public var rgbRowBytes: Int { width * 3 * sampleBytes }
  /// Bytes of the packed RGB frame the conversion reads and writes.
  public var rgbFrameBytes: Int { rgbRowBytes * height }
}

/// One plane of a YUV frame in memory: its first sample and the bytes from one row to the next.
public struct YUVPlane {
  /// The first sample.
  public var base: UnsafeRawPointer
  /// Bytes from one row to the next.
  public var stride: Int

  /// A plane at `base`, rows `stride` bytes apart.
  public init(_ base: UnsafeRawPointer, stride: Int) {
    self.base = base
    self.stride = stride
  }
}

/// FrameDial's own conversion between YUV 4:2:0 frames and packed RGB (`CRowKernels`'s
/// `yuv_convert.c`; 8-bit frames in 16-bit fixed point, `yuv_fixed8.c`), matching FFmpeg's swscale
/// with bicubic chroma, `accurate_rnd` and `full_chroma_int` to within one code value at 8 bits.
/// Frames are split into one band of rows per thread (``threads``).
public final class YUV420Converter: @unchecked Sendable {
  /// The frames this converter reads and writes.
  public let layout: YUV420Layout
  /// The threads a frame is split over, one band of rows each; nil: one per core.
  public let threads: Int?
  private let plan: OpaquePointer

  /// A converter for frames laid out as `layout`, split over `threads` (nil: one per core; FrameDial
  /// passes libvips's render threads, `Vips.configuration?.threads`).
  ///
  /// - Throws: ``RowKernelError`` for an empty size or a depth other than 8 or 10.
  public init(_ layout: YUV420Layout, threads: Int? = nil) throws {
    guard layout.width > 0, layout.height > 0, layout.depth == 8 || layout.depth == 10,
      let plan = fd_yuv_plan_create(
        Int32(layout.width), Int32(layout.height), Int32(layout.depth),
        layout.matrix.kernelCode, layout.range == .pc ? 1 : 0)
    else {
      throw RowKernelError(
        "YUV 4:2:0 frames need a size above 0 and 8 or 10 bits, not "
          + "\(layout.width)×\(layout.height) at \(layout.depth) bits")
    }
    self.layout = layout
    self.threads = threads
    self.plan = plan
  }

  deinit { fd_yuv_plan_free(plan) }

  /// The Y, U and V planes of a packed frame at `base`.
  public func planes(of base: UnsafeRawPointer) -> [YUVPlane] {
    let (luma, chroma) = (
      layout.width * layout.sampleBytes, layout.chromaWidth * layout.sampleBytes
    )
    return [
      YUVPlane(base, stride: luma), YUVPlane(base + layout.lumaBytes, stride: chroma),
      YUVPlane(base + layout.lumaBytes + layout.chromaBytes, stride: chroma),
    ]
  }

  /// Converts the Y, U and V `planes` into packed RGB at `rgb`, rows `rgbStride` bytes apart.
  public func toRGB(_ planes: [YUVPlane], into rgb: UnsafeMutableRawPointer, rgbStride: Int) {
    guard planes.count == 3 else { return }
    let (y, u, v) = (planes[0], planes[1], planes[2])
    let addresses = [y.base, u.base, v.base].map { UInt(bitPattern: $0) }
    let strides = [y.stride, u.stride, v.stride]
    let (plan, target) = (UInt(bitPattern: plan), UInt(bitPattern: rgb))
    inBands(of: layout.height, step: 2) { start, end in
      fd_yuv420_to_rgb(
        OpaquePointer(bitPattern: plan), UnsafeRawPointer(bitPattern: addresses[0]), strides[0],
        UnsafeRawPointer(bitPattern: addresses[1]), strides[1],
        UnsafeRawPointer(bitPattern: addresses[2]), strides[2],
        UnsafeMutableRawPointer(bitPattern: target), rgbStride, Int32(start), Int32(end))
    }
  }

  /// Converts packed RGB at `rgb`, rows `rgbStride` bytes apart, into the Y, U and V `planes`.
  public func fromRGB(
    _ rgb: UnsafeRawPointer, rgbStride: Int, into planes: [UnsafeMutableRawPointer],
    strides: [Int]
  ) {
    guard planes.count == 3, strides.count == 3 else { return }
    let addresses = planes.map { UInt(bitPattern: $0) }
    let (plan, source) = (UInt(bitPattern: plan), UInt(bitPattern: rgb))
    inBands(of: layout.chromaHeight, step: 1) { start, end in
      fd_rgb_to_yuv420(
        OpaquePointer(bitPattern: plan), UnsafeRawPointer(bitPattern: source), rgbStride,
        UnsafeMutableRawPointer(bitPattern: addresses[0]), strides[0],
        UnsafeMutableRawPointer(bitPattern: addresses[1]), strides[1],
        UnsafeMutableRawPointer(bitPattern: addresses[2]), strides[2], Int32(start),
        Int32(end))
    }
  }

  /// Renders 8-bit frames in one pass: each row of the `input` planes is converted to RGB (a plane per
  /// channel where `colour` has a planar path on this CPU, packed otherwise), run through `colour` and
  /// converted back into the `output` planes (rows `strides` bytes apart) while it is in the caches. The result is exactly ``toRGB(_:into:rgbStride:)``, `colour` over the whole
  /// frame, then ``fromRGB(_:rgbStride:into:strides:)``.
  ///
  /// - Throws: ``RowKernelError`` for 10-bit frames or when memory runs out.
  public func transform(
    _ input: [YUVPlane], into output: [UnsafeMutableRawPointer], strides: [Int],
    through colour: ColourRows
  ) throws {
    guard layout.depth == 8 else {
      throw RowKernelError("the one-pass colour render takes 8-bit frames, not \(layout.depth)-bit")
    }
    guard input.count == 3, output.count == 3, strides.count == 3 else { return }
    let sources = input.map { UInt(bitPattern: $0.base) }
    let sourceStrides = input.map(\.stride)
    let targets = output.map { UInt(bitPattern: $0) }
    let (plan, rows) = (UInt(bitPattern: plan), UInt(bitPattern: colour.pointer))
    // Planes where the colour kernels have a planar path, packed rows where they would pack them.
    let planar = fd_colour_rows_has_planar_path(colour.pointer)
    try inChromaBands { start, end in
      fd_yuv420_transform(
        OpaquePointer(bitPattern: plan), applyColourRows, UnsafeRawPointer(bitPattern: rows),
        planar,
        UnsafeRawPointer(bitPattern: sources[0]), sourceStrides[0],
        UnsafeRawPointer(bitPattern: sources[1]), sourceStrides[1],
        UnsafeRawPointer(bitPattern: sources[2]), sourceStrides[2],
        UnsafeMutableRawPointer(bitPattern: targets[0]), strides[0],
        UnsafeMutableRawPointer(bitPattern: targets[1]), strides[1],
        UnsafeMutableRawPointer(bitPattern: targets[2]), strides[2], start, end)
    }
  }

  /// Renders 10-bit frames in one pass: each row of the `input` planes is converted to 16-bit RGB, run
  /// through `colour` (16-bit rows; nil: none) and then `stage` (nil: none), and converted back with
  /// `converter` (nil: this converter) into the `output` planes (rows `strides` bytes apart) while it is
  /// in the caches. An 8-bit `converter` takes the rgb24 rows that `stage` makes (a tone mapping to
  /// SDR); a 10-bit one the 16-bit rows. The result is exactly ``toRGB(_:into:rgbStride:)``, `colour`
  /// and `stage` over the whole frame, then the converter's ``fromRGB(_:rgbStride:into:strides:)``.
  ///
  /// - Throws: ``RowKernelError`` for frames not of 10 bits, a `converter` of another size, an 8-bit
  ///   one without `stage` or a 10-bit one with it, 8-bit `colour`, or when memory runs out.
  public func transform10(
    _ input: [YUVPlane], into output: [UnsafeMutableRawPointer], strides: [Int],
    through colour: ColourRows?, then stage: RGB48RowStage? = nil,
    convertedBy converter: YUV420Converter? = nil
  ) throws {
    let target = converter ?? self
    // A stage makes rgb24, which an 8-bit converter takes; without one, a 10-bit converter takes the
    // 16-bit rows.
    guard layout.depth == 10, target.layout.width == layout.width,
      target.layout.height == layout.height, (stage == nil) == (target.layout.depth == 10),
      colour.map({ $0.sampleBytes == 2 }) ?? true
    else {
      throw RowKernelError(
        "the one-pass 10-bit render takes a 10-bit frame to a frame of its size, 8-bit only through "
          + "a stage to rgb24, with 16-bit colour rows")
    }
    guard input.count == 3, output.count == 3, strides.count == 3 else { return }
    let sources = input.map { UInt(bitPattern: $0.base) }
    let sourceStrides = input.map(\.stride)
    let targets = output.map { UInt(bitPattern: $0) }
    let plans = (UInt(bitPattern: plan), UInt(bitPattern: target.plan))
    let rows = colour.map { UInt(bitPattern: $0.pointer) } ?? 0
    let box = stage.map(StageBox.init)
    let context = box.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0
    try withExtendedLifetime((colour, box)) {
      try inChromaBands { start, end in
        fd_yuv420_transform16(
          OpaquePointer(bitPattern: plans.0), OpaquePointer(bitPattern: plans.1),
          OpaquePointer(bitPattern: rows), context == 0 ? nil : applyStage,
          UnsafeRawPointer(bitPattern: context),
          UnsafeRawPointer(bitPattern: sources[0]), sourceStrides[0],
          UnsafeRawPointer(bitPattern: sources[1]), sourceStrides[1],
          UnsafeRawPointer(bitPattern: sources[2]), sourceStrides[2],
          UnsafeMutableRawPointer(bitPattern: targets[0]), strides[0],
          UnsafeMutableRawPointer(bitPattern: targets[1]), strides[1],
          UnsafeMutableRawPointer(bitPattern: targets[2]), strides[2], start, end)
      }
    }
  }

  /// Runs a one-pass render, `body` (0 when done), on one band of chroma rows per render thread.
  ///
  /// - Throws: ``RowKernelError`` when a band ran out of memory.
  private func inChromaBands(_ body: @Sendable (Int32, Int32) -> Int32) throws {
    let failures = Atomic(0)
    inBands(of: layout.chromaHeight, step: 1) { start, end in
      if body(Int32(start), Int32(end)) != 0 { failures.add(1, ordering: .relaxed) }
    }
    if failures.load(ordering: .relaxed) > 0 {
      throw RowKernelError("out of memory converting a \(layout.width)×\(layout.height) YUV frame")
    }
  }

  /// `rgb`, a packed RGB frame of ``layout``'s size (rows ``YUV420Layout/rgbRowBytes`` apart), converted
  /// to a packed YUV frame (the Y, U and V planes one after another, ``YUV420Layout/frameBytes``).
  ///
  /// - Throws: ``RowKernelError`` when `rgb` is not one frame's bytes.
  public func packedYUV(fromRGB rgb: [UInt8]) throws -> [UInt8] {
    try converted(rgb, from: "RGB", size: layout.rgbFrameBytes, to: layout.frameBytes) {
      base, out in
      let planes = self.planes(of: out)
      fromRGB(
        base, rgbStride: layout.rgbRowBytes,
        into: planes.map { UnsafeMutableRawPointer(mutating: $0.base) },
        strides: planes.map(\.stride))
    }
  }

  /// `yuv`, a packed YUV frame (``packedYUV(fromRGB:)``), converted to packed RGB.
  ///
  /// - Throws: ``RowKernelError`` when `yuv` is not one frame's bytes.
  public func packedRGB(fromYUV yuv: [UInt8]) throws -> [UInt8] {
    try converted(yuv, from: "YUV", size: layout.frameBytes, to: layout.rgbFrameBytes) {
      base, out in
      toRGB(planes(of: base), into: out, rgbStride: layout.rgbRowBytes)
    }
  }

  /// `frame`, which must hold one `kind` frame of `size` bytes, converted by `convert` into a new frame
  /// of `outputSize` bytes.
  private func converted(
    _ frame: [UInt8], from kind: String, size: Int, to outputSize: Int,
    _ convert: (UnsafeRawPointer, UnsafeMutableRawPointer) -> Void
  ) throws -> [UInt8] {
    guard frame.count == size else {
      throw RowKernelError(
        "\(frame.count) bytes are not one \(layout.width)×\(layout.height) \(kind) frame")
    }
    var output = [UInt8](repeating: 0, count: outputSize)
    frame.withUnsafeBytes { source in
      output.withUnsafeMutableBytes { target in
        guard let base = source.baseAddress, let out = target.baseAddress else { return }
        convert(base, out)
      }
    }
    return output
  }

  /// Runs `work` on one band of `count` rows per render thread, band edges on multiples of `step`.
  private func inBands(of count: Int, step: Int, _ work: @Sendable (Int, Int) -> Void) {
    let threads = self.threads ?? ProcessInfo.processInfo.activeProcessorCount
    let bands = count * layout.width >= 1 << 16 ? max(1, min(threads, count / (4 * step))) : 1
    let perBand = ((count + bands - 1) / bands + step - 1) / step * step
    if bands == 1 {
      work(0, count)
      return
    }
    DispatchQueue.concurrentPerform(iterations: bands) { band in
      let start = band * perBand
      if start < count { work(start, min(count, start + perBand)) }
    }
  }
}

/// Runs ``ColourRows`` (its pointer is the context) on rows for `fd_yuv420_transform`: planes (step
/// 1) or packed rgb24 (step 3).
private let applyColourRows: FDRGBRowTransform = { context, input, output, step, pixels in
  guard let input, let output else { return }
  if step == 1 {
    fd_colour_rows_apply_planes(OpaquePointer(context), input, output, pixels)
  } else if let source = input[0], let target = output[0] {
    fd_colour_rows_apply(OpaquePointer(context), source, target, pixels)
  }
}

/// The second stage of ``YUV420Converter/transform10(_:into:strides:through:then:convertedBy:)``: packed
/// 16-bit RGB rows to packed rgb24 rows (an HDR frame's tone mapping to SDR). Called from several
/// threads at once, each on rows of its own.
public protocol RGB48RowStage: AnyObject, Sendable {
  /// Maps `pixels` packed 16-bit RGB pixels at `input` to packed rgb24 pixels at `output`.
  func map(_ input: UnsafePointer<UInt16>, into output: UnsafeMutablePointer<UInt8>, pixels: Int)

  /// One stage that gives what `colour` and then this stage give, in one step a row, or nil when
  /// this stage cannot take `colour` in (the default).
  ///
  /// - Throws: ``RowKernelError`` when memory runs out.
  func fused(with colour: ColourRows) throws -> (any RGB48RowStage)?
}

extension RGB48RowStage {
  /// No fused stage: the colour runs before this stage.
  public func fused(with colour: ColourRows) throws -> (any RGB48RowStage)? { nil }
}

/// A stage behind one pointer, for the C side's context.
private final class StageBox: @unchecked Sendable {
  let stage: any RGB48RowStage
  init(_ stage: any RGB48RowStage) { self.stage = stage }
}

/// Runs the ``RGB48RowStage`` in the `StageBox` the context points at.
private let applyStage: FDRGB16RowTransform = { context, input, output, pixels in
  guard let context, let input, let output else { return }
  Unmanaged<StageBox>.fromOpaque(context).takeUnretainedValue().stage.map(
    input, into: output.assumingMemoryBound(to: UInt8.self), pixels: Int(pixels))
}
