import Controls
import RowKernels
import Vips

/// Renders YUV 4:2:0 frames (`yuv420p`, `yuv420p10le`) in memory with FrameDial's own conversion
/// (`RowKernels/YUV420Converter`). A frame whose state is colour only (no zoom, no auto white
/// balance) is rendered in one pass: each row is converted to RGB (rgb24 at 8 bits, 16-bit RGB at
/// 10), coloured by the kernel of its depth and converted back while it is in the caches; a 10-bit
/// frame may also go through a second stage on the way (an HDR frame's tone mapping to an 8-bit SDR
/// frame). Other frames are converted to packed RGB into a reusable buffer, rendered with a
/// ``FrameRenderer`` (rgb24 for 8-bit frames, the 16-bit path for 10-bit ones) and converted back.
/// Both give the same codes. The identity state copies the planes, bit for bit, without converting.
///
/// Frames are packed: the Y plane, then U and V (see `RowKernels/YUV420Layout`). A renderer belongs to one
/// render thread; other threads change the controls through `controls`.
public final class YUVFrameRenderer {
  /// The frame size, depth and colour.
  public let layout: YUV420Layout
  /// The RGB renderer between the two conversions.
  public let renderer: FrameRenderer
  private let converter: YUV420Converter
  private let rgbIn: UnsafeMutableRawBufferPointer
  private let rgbOut: UnsafeMutableRawBufferPointer
  /// The converter of the 8-bit frames a second stage makes (for the last layout asked for).
  private var stageConverter: YUV420Converter?

  /// The controls this renderer follows.
  public var controls: LiveControlState { renderer.controls }

  /// Creates a renderer for frames laid out as `layout` whose R′G′B′ codes are in `encoding`, following
  /// `controls`.
  ///
  /// - Throws: `VipsError` or `RenderError` for a size or depth the renderers cannot take.
  public init(
    layout: YUV420Layout, controls: LiveControlState, cache: PlanCache = PlanCache(),
    encoding: ColourEncoding = .sRGB
  ) throws {
    self.layout = layout
    converter = try YUV420Converter(layout, threads: Vips.configuration?.threads)
    renderer = try FrameRenderer(
      width: layout.width, height: layout.height,
      pixelFormat: layout.sampleBytes == 2 ? .rgb48 : .rgb24, controls: controls, cache: cache,
      encoding: encoding)
    let bytes = layout.rgbFrameBytes
    rgbIn = .allocate(byteCount: bytes, alignment: 64)
    rgbOut = .allocate(byteCount: bytes, alignment: 64)
  }

  deinit {
    rgbIn.deallocate()
    rgbOut.deallocate()
  }

  /// Renders one packed frame from `input` into `output` (both `YUV420Layout.frameBytes` long
  /// at least) and returns the generation of the control state it used.
  @discardableResult
  public func render(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
    throws -> UInt64
  {
    let bytes = layout.frameBytes
    guard input.count >= bytes, output.count >= bytes, let source = input.baseAddress,
      let target = output.baseAddress, let rgbSource = rgbIn.baseAddress,
      let rgbTarget = rgbOut.baseAddress
    else {
      throw RenderError(
        "a \(layout.width)×\(layout.height) \(layout.depth)-bit YUV 4:2:0 frame needs \(bytes) bytes"
      )
    }
    let snapshot = controls.snapshot()
    if renderer.cache.plan(for: snapshot.state, encoding: renderer.encoding).recipe.isIdentity {
      target.copyMemory(from: source, byteCount: bytes)
      return snapshot.generation
    }
    let planes = converter.planes(of: target)
    if try renderOnePass(
      converter.planes(of: source), into: planes.map { UnsafeMutableRawPointer(mutating: $0.base) },
      strides: planes.map(\.stride), snapshot: snapshot)
    {
      return snapshot.generation
    }
    let stride = layout.rgbRowBytes
    converter.toRGB(converter.planes(of: source), into: rgbSource, rgbStride: stride)
    let generation = try renderer.render(UnsafeRawBufferPointer(rgbIn), into: rgbOut)
    converter.fromRGB(
      rgbTarget, rgbStride: stride, into: planes.map { UnsafeMutableRawPointer(mutating: $0.base) },
      strides: planes.map(\.stride))
    return generation
  }

  /// Renders the frame in the `input` planes into the `output` planes (rows `strides` bytes apart) in
  /// one pass when the controls' state allows it (colour only: no zoom, no auto white balance, not the
  /// identity); returns false, touching nothing, when it does not.
  ///
  /// - Throws: `VipsError` when memory runs out.
  public func renderOnePass(
    _ input: [YUVPlane], into output: [UnsafeMutableRawPointer], strides: [Int]
  ) throws -> Bool {
    try renderOnePass(input, into: output, strides: strides, snapshot: controls.snapshot())
  }

  /// Renders the 10-bit frame in the `input` planes in one pass through the controls' colour (none for
  /// the identity state) and then `stage`, which makes rgb24 rows of the 16-bit ones, into the
  /// `output` planes of an 8-bit frame laid out as `layout` (its size is this renderer's); returns
  /// false, touching nothing, when the state needs the RGB renderer (zoom, auto white balance, the
  /// unoptimized graph).
  ///
  /// - Throws: `RenderError` for frames not of 10 bits or a `layout` of another size; `RowKernelError`
  ///   when memory runs out.
  public func renderOnePass(
    _ input: [YUVPlane], into output: [UnsafeMutableRawPointer], strides: [Int],
    then stage: any RGB48RowStage, outputLayout layout: YUV420Layout
  ) throws -> Bool {
    guard self.layout.depth == 10, layout.width == self.layout.width,
      layout.height == self.layout.height
    else {
      throw RenderError(
        "a second stage takes a 10-bit frame to a frame of its size, not \(self.layout.depth)-bit "
          + "to \(layout.width)×\(layout.height)")
    }
    let (passes, colour) = try renderer.onePassColour(controls.snapshot())
    guard passes else { return false }
    if stageConverter?.layout != layout {
      stageConverter = try YUV420Converter(layout, threads: converter.threads)
    }
    // A stage that takes the colour in does both in one step a row.
    let fused = try colour.flatMap { try stage.fused(with: $0) }
    try converter.transform10(
      input, into: output, strides: strides, through: fused == nil ? colour : nil,
      then: fused ?? stage, convertedBy: stageConverter)
    return true
  }

  private func renderOnePass(
    _ input: [YUVPlane], into output: [UnsafeMutableRawPointer], strides: [Int],
    snapshot: LiveControlState.Snapshot
  ) throws -> Bool {
    let (passes, colour) = try renderer.onePassColour(snapshot)
    guard passes, let colour else { return false }
    if layout.depth == 10 {
      try converter.transform10(input, into: output, strides: strides, through: colour)
    } else {
      try converter.transform(input, into: output, strides: strides, through: colour)
    }
    return true
  }
}
