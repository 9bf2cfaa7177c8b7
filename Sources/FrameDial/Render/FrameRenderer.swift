import Controls
import Foundation
import Vips

/// Renders video frames in memory: reads a caller's 8-bit RGB, RGBA or BGRA buffer and writes the
/// processed frame into another caller buffer of the same layout.
///
/// At the start of each frame it reads the latest ``LiveControlState`` snapshot; when the generation is
/// unchanged the cached kernel tables are reused, so a frame costs one wrap, one fused kernel pass (plus the
/// zoom window's enlargement) and no recompilation. The identity state copies the frame and nothing more.
/// Auto white balance is measured every frame on a sample of at most
/// ``AutoWhiteBalance/frameSampleWidth`` columns and smoothed over time by ``WhiteBalanceSmoother``.
///
/// When the controls change while a frame is being computed, the frame is abandoned and computed again
/// with the new values (see ``restartWindow``), so a change reaches the next completed frame rather than
/// waiting behind a stale one.
///
/// A renderer belongs to one render thread; other threads change the controls through `controls`.
public final class FrameRenderer {
  /// The frame layout (size, bands, row stride) of both input and output buffers.
  public let layout: FrameLayout
  /// The byte order of the pixels.
  public let pixelFormat: PixelFormat
  /// The control values this renderer follows.
  public let controls: LiveControlState
  /// The compiled plans.
  public let cache: PlanCache
  /// How zoom windows are enlarged; bilinear by default on frames (several times faster than bicubic).
  public var zoomKernel: ZoomKernel = .bilinear
  /// False renders through the unoptimized graph (benchmarks compare the two).
  public var optimized = true
  /// A control change seen before this fraction of a frame is computed restarts the frame with the new
  /// values; later changes wait for the next frame. A frame restarts at most once, so changes arriving
  /// faster than frames never starve it. 0 never restarts. With the default 0.5 a change reaches a
  /// completed frame within 1.5 frame times (instead of 2), for at most half a frame of extra work.
  public var restartWindow = FrameRenderer.defaultRestartWindow
  /// The default ``restartWindow``.
  public static let defaultRestartWindow = 0.5
  /// Frames restarted because the controls changed under them, since the renderer was created.
  public private(set) var restartedFrames = 0

  private var current: (generation: UInt64, plan: Plan, tables: KernelTables8)?
  private var smoother = WhiteBalanceSmoother()

  /// Creates a renderer for frames of `width × height` in `pixelFormat`, rows `rowStride` bytes apart
  /// (packed by default).
  public init(
    width: Int, height: Int, pixelFormat: PixelFormat, rowStride: Int? = nil,
    controls: LiveControlState, cache: PlanCache = PlanCache()
  ) throws {
    layout = FrameLayout(
      width: width, height: height, bands: pixelFormat.bands, rowStride: rowStride)
    try layout.validate(bufferBytes: layout.requiredBytes)
    self.pixelFormat = pixelFormat
    self.controls = controls
    self.cache = cache
  }

  /// Renders one frame from `input` into `output` (both laid out as ``layout``) and returns the
  /// generation of the control state it used.
  @discardableResult
  public func render(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
    throws -> UInt64
  {
    try layout.validate(bufferBytes: input.count)
    try layout.validate(bufferBytes: output.count)
    var restartable = restartWindow > 0
    while true {
      let snapshot = controls.snapshot()
      let (plan, tables) = prepared(for: snapshot)
      if plan.recipe.isIdentity {
        copy(input, into: output)
        return snapshot.generation
      }
      let frame = try Image(wrapping: input, layout: layout)
      guard optimized else {
        guard pixelFormat != .bgra else {
          throw RenderError("the unoptimized frame path reads RGB order only, not bgra")
        }
        // The long unoptimized chain runs in libvips's own sink.
        let result = try plan.recipe.loweredUnoptimized(
          on: frame, autoGains: try autoGains(frame, plan), zoomKernel: zoomKernel)
        try result.render(into: output, layout: layout, strategy: .libvipsSink)
        return snapshot.generation
      }
      let smootherBefore = smoother
      let result = try renderOptimized(frame, plan: plan, tables: tables)
      guard restartable else {
        try result.render(into: output, layout: layout)
        return snapshot.generation
      }
      let (controls, window, generation) = (controls, restartWindow, snapshot.generation)
      let completed = try result.render(into: output, layout: layout) { fractionDone in
        fractionDone < window && controls.generation != generation
      }
      if completed { return snapshot.generation }
      // The frame was abandoned for newer controls: compute it again, once, as if from the start.
      smoother = smootherBefore
      restartedFrames += 1
      restartable = false
    }
  }

  private func renderOptimized(_ frame: Image, plan: Plan, tables: KernelTables8) throws -> Image {
    var source = frame
    if let zoom = plan.zoom {
      let window = zoom.window(imageWidth: layout.width, imageHeight: layout.height)
      source = try frame.extractArea(
        left: window.left, top: window.top, width: window.width, height: window.height)
    }
    var frameTables = tables
    if plan.needsAutoWhiteBalance {
      frameTables = KernelTables8(
        plan.colorProgram(autoGains: try autoGains(source, plan)),
        swapRedAndBlue: pixelFormat == .bgra)
    }
    let coloured = try frameTables.apply(to: source)
    return try coloured.enlarged(to: layout.width, layout.height, kernel: zoomKernel)
  }

  /// The smoothed grey-world gains of the frame's window, in R, G, B order.
  private func autoGains(_ window: Image, _ plan: Plan) throws -> SIMD3<Double> {
    guard plan.needsAutoWhiteBalance else { return SIMD3(1, 1, 1) }
    var measured = try AutoWhiteBalance.gains(
      of: window, sampleWidth: AutoWhiteBalance.frameSampleWidth)
    if pixelFormat == .bgra { measured = SIMD3(measured.z, measured.y, measured.x) }
    return smoother.update(measured)
  }

  /// The plan and kernel tables for `snapshot`, rebuilt only when its generation changed.
  private func prepared(for snapshot: LiveControlState.Snapshot) -> (Plan, KernelTables8) {
    if let current, current.generation == snapshot.generation {
      return (current.plan, current.tables)
    }
    let plan = cache.plan(for: snapshot.state)
    if !plan.needsAutoWhiteBalance { smoother.reset() }
    let tables = KernelTables8(plan.colorProgram, swapRedAndBlue: pixelFormat == .bgra)
    current = (snapshot.generation, plan, tables)
    return (plan, tables)
  }

  private func copy(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
    if layout.isPacked {
      output.copyMemory(from: UnsafeRawBufferPointer(rebasing: input[0..<layout.requiredBytes]))
      return
    }
    for row in 0..<layout.height {
      let start = row * layout.rowStride
      let end = start + layout.packedRowBytes
      UnsafeMutableRawBufferPointer(rebasing: output[start..<end])
        .copyMemory(from: UnsafeRawBufferPointer(rebasing: input[start..<end]))
    }
  }
}
