import Controls
import Foundation
import RowKernels
import Vips

/// Renders video frames in memory: reads a caller's 8-bit RGB, RGBA or BGRA buffer, or 16-bit RGB or
/// RGBA buffer, and writes the processed frame into another caller buffer of the same layout.
///
/// At the start of each frame it reads the latest `LiveControlState` snapshot; when the generation is
/// unchanged the cached kernel tables are reused, so a frame costs one wrap, one fused kernel pass (plus the
/// zoom window's enlargement) and no recompilation. 16-bit frames run the plan's 16-bit tables (65536
/// entries a channel, as 16-bit stills do), so 10-bit video keeps its levels. The identity state copies
/// the frame and nothing more (in one band per render thread when the frame holds 1 MB or more).
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
  /// What the frames' codes are in (sRGB for SDR video; BT.2100 HLG or PQ for HDR video).
  public let encoding: ColourEncoding
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
  /// The one-pass colour rows of the last state asked about, by its generation (`passes` false: not
  /// one-pass; nil `colour`: the identity colour program).
  private var onePass: (generation: UInt64, passes: Bool, colour: ColourRows?)?

  /// Creates a renderer for frames of `width × height` in `pixelFormat`, rows `rowStride` bytes apart
  /// (packed by default).
  public init(
    width: Int, height: Int, pixelFormat: PixelFormat, rowStride: Int? = nil,
    controls: LiveControlState, cache: PlanCache = PlanCache(), encoding: ColourEncoding = .sRGB
  ) throws {
    layout = FrameLayout(
      width: width, height: height, bands: pixelFormat.bands, sampleBytes: pixelFormat.sampleBytes,
      rowStride: rowStride)
    try layout.validate(bufferBytes: layout.requiredBytes)
    guard pixelFormat.sampleBytes == 1 || 1.littleEndian == 1 else {
      throw RenderError("\(pixelFormat.rawValue) frames are little-endian; this machine is not")
    }
    self.pixelFormat = pixelFormat
    self.controls = controls
    self.cache = cache
    self.encoding = encoding
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

  /// The frame through the plan's shared lowering (``Plan/lowered(on:zoomKernel:outputSize:colouring:)``),
  /// coloured by the cached kernel tables (8 bits) or the plan's 16-bit tables, with auto white
  /// balance measured on the pixels being coloured.
  private func renderOptimized(_ frame: Image, plan: Plan, tables: KernelTables8) throws -> Image {
    try plan.lowered(on: frame, zoomKernel: zoomKernel) { source in
      if pixelFormat.sampleBytes == 2 {
        let program =
          plan.needsAutoWhiteBalance
          ? plan.colorProgram(autoGains: try autoGains(source, plan)) : plan.colorProgram
        return try program.lowered(on: source)
      }
      var frameTables = tables
      if plan.needsAutoWhiteBalance {
        frameTables = KernelTables8(
          plan.colorProgram(autoGains: try autoGains(source, plan)),
          swapRedAndBlue: pixelFormat == .bgra)
      }
      return try frameTables.apply(to: source)
    }
  }

  /// The smoothed grey-world gains of the frame's window, in R, G, B order.
  private func autoGains(_ window: Image, _ plan: Plan) throws -> SIMD3<Double> {
    guard plan.needsAutoWhiteBalance else { return SIMD3(1, 1, 1) }
    var measured = try AutoWhiteBalance.gains(
      of: window, sampleWidth: AutoWhiteBalance.frameSampleWidth, transfer: encoding.transfer)
    if pixelFormat == .bgra { measured = SIMD3(measured.z, measured.y, measured.x) }
    return smoother.update(measured)
  }

  /// The plan and kernel tables for `snapshot`, rebuilt only when its generation changed.
  private func prepared(for snapshot: LiveControlState.Snapshot) -> (Plan, KernelTables8) {
    if let current, current.generation == snapshot.generation {
      return (current.plan, current.tables)
    }
    let plan = cache.plan(for: snapshot.state, encoding: encoding)
    if !plan.needsAutoWhiteBalance { smoother.reset() }
    // 16-bit frames read the program's own 16-bit tables (built once, kept by the plan).
    let tables =
      pixelFormat.sampleBytes == 2
      ? KernelTables8.identity
      : KernelTables8(plan.colorProgram, swapRedAndBlue: pixelFormat == .bgra)
    current = (snapshot.generation, plan, tables)
    return (plan, tables)
  }

  /// Whether `snapshot`'s state renders in one pass over packed RGB rows (rgb24 or rgb48, as the
  /// frames), and the colour rows that do it (nil for the identity colour program): not when the state
  /// needs the libvips graph (zoom, auto white balance, the unoptimized graph) or the frames have four
  /// bands. Kept for the snapshot's generation.
  ///
  /// - Throws: `RowKernelError` when memory runs out.
  func onePassColour(_ snapshot: LiveControlState.Snapshot) throws -> (
    passes: Bool, colour: ColourRows?
  ) {
    if let onePass, onePass.generation == snapshot.generation {
      return (onePass.passes, onePass.colour)
    }
    let plan = cache.plan(for: snapshot.state, encoding: encoding)
    let passes =
      optimized && plan.zoom == nil && !plan.needsAutoWhiteBalance && layout.bands == 3
      && (pixelFormat == .rgb24 || pixelFormat == .rgb48)
    var colour: ColourRows?
    if passes {
      colour =
        pixelFormat.sampleBytes == 1
        ? try KernelTables8(plan.colorProgram).colourRows() : try plan.colorProgram.colourRows16()
    }
    onePass = (snapshot.generation, passes, colour)
    return (passes, colour)
  }

  /// Copies the frame; frames of 1 MB or more are split into one band of rows per render thread
  /// (``Vips/Configuration/threads``), as the colour kernels are.
  private func copy(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
    let layout = layout
    let threads = Vips.configuration?.threads ?? ProcessInfo.processInfo.activeProcessorCount
    let bands = layout.requiredBytes >= 1 << 20 ? max(1, min(threads, layout.height)) : 1
    let rowsPerBand = (layout.height + bands - 1) / bands
    let (from, to) = (UInt(bitPattern: input.baseAddress), UInt(bitPattern: output.baseAddress))
    @Sendable func copyBand(_ band: Int) {
      let top = band * rowsPerBand
      let rows = min(rowsPerBand, layout.height - top)
      guard rows > 0 else { return }
      // Packed rows are one contiguous run; padded rows are copied one by one, padding untouched.
      let (runs, runBytes) =
        layout.isPacked ? (1, rows * layout.rowStride) : (rows, layout.packedRowBytes)
      for run in 0..<runs {
        let offset = UInt((top + run) * layout.rowStride)
        guard let source = UnsafeRawPointer(bitPattern: from + offset),
          let target = UnsafeMutableRawPointer(bitPattern: to + offset)
        else { return }
        target.copyMemory(from: source, byteCount: runBytes)
      }
    }
    if bands == 1 {
      copyBand(0)
    } else {
      DispatchQueue.concurrentPerform(iterations: bands) { copyBand($0) }
    }
  }
}
