import Controls
import Vips

/// Renders YUV 4:2:0 frames (`yuv420p`, `yuv420p10le`) in memory: converts a frame to packed RGB with
/// FrameDial's own conversion (``Vips/YUV420Converter``) into a reusable buffer, renders it with a
/// ``FrameRenderer`` (rgb24 for 8-bit frames, the 16-bit path for 10-bit ones) and converts the result
/// back. The identity state copies the planes, bit for bit, without converting.
///
/// Frames are packed: the Y plane, then U and V (see ``Vips/YUV420Layout``). A renderer belongs to one
/// render thread; other threads change the controls through `controls`.
public final class YUVFrameRenderer {
  /// The frame size, depth and colour.
  public let layout: YUV420Layout
  /// The RGB renderer between the two conversions.
  public let renderer: FrameRenderer
  private let converter: YUV420Converter
  private let rgbIn: UnsafeMutableRawBufferPointer
  private let rgbOut: UnsafeMutableRawBufferPointer

  /// The controls this renderer follows.
  public var controls: LiveControlState { renderer.controls }

  /// Creates a renderer for frames laid out as `layout`, following `controls`.
  ///
  /// - Throws: `VipsError` or `RenderError` for a size or depth the renderers cannot take.
  public init(layout: YUV420Layout, controls: LiveControlState, cache: PlanCache = PlanCache())
    throws
  {
    self.layout = layout
    converter = try YUV420Converter(layout)
    renderer = try FrameRenderer(
      width: layout.width, height: layout.height,
      pixelFormat: layout.sampleBytes == 2 ? .rgb48 : .rgb24, controls: controls, cache: cache)
    let bytes = layout.rgbLayout.requiredBytes
    rgbIn = .allocate(byteCount: bytes, alignment: 64)
    rgbOut = .allocate(byteCount: bytes, alignment: 64)
  }

  deinit {
    rgbIn.deallocate()
    rgbOut.deallocate()
  }

  /// Renders one packed frame from `input` into `output` (both ``Vips/YUV420Layout/frameBytes`` long
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
    if renderer.cache.plan(for: snapshot.state).recipe.isIdentity {
      target.copyMemory(from: source, byteCount: bytes)
      return snapshot.generation
    }
    let stride = layout.rgbLayout.rowStride
    converter.toRGB(converter.planes(of: source), into: rgbSource, rgbStride: stride)
    let generation = try renderer.render(UnsafeRawBufferPointer(rgbIn), into: rgbOut)
    let planes = converter.planes(of: target).map { UnsafeMutableRawPointer(mutating: $0.base) }
    let strides = converter.planes(of: target).map(\.stride)
    converter.fromRGB(rgbTarget, rgbStride: stride, into: planes, strides: strides)
    return generation
  }
}
