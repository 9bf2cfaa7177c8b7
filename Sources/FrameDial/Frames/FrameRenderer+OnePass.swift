import Foundation
import RowKernels
import Vips

extension FrameRenderer {
  /// Renders one packed 16-bit RGB frame (``PixelFormat/rgb48``, the frame's codes in ``encoding``)
  /// from `input` through the controls' colour and then `stage` (an HDR frame's tone mapping to SDR)
  /// into `output`, packed rgb24 of the frame's size, in one pass over the rows: each row is coloured
  /// into a scratch row while it is in the caches and handed to `stage` from there, with no libvips
  /// image between them (or, when `stage` can take the colour in, `RGB48RowStage/fused(with:)`, both
  /// in one step). Rows go in bands, one per render thread. The colour gives the codes
  /// ``render(_:into:)`` gives. Returns the generation of the control state used, or nil, touching
  /// nothing, when the state needs the libvips graph (zoom, auto white balance, the unoptimized graph).
  ///
  /// - Throws: ``RenderError`` for frames that are not packed rgb48 or buffers too small;
  ///   `RowKernelError` when memory runs out.
  public func renderOnePass(
    _ input: UnsafeRawBufferPointer, then stage: any RGB48RowStage,
    into output: UnsafeMutableRawBufferPointer
  ) throws -> UInt64? {
    guard pixelFormat == .rgb48, layout.isPacked else {
      throw RenderError("the one-pass render with a second stage takes packed rgb48 frames")
    }
    try layout.validate(bufferBytes: input.count)
    let (width, height) = (layout.width, layout.height)
    guard let from = input.baseAddress, let to = output.baseAddress,
      output.count >= width * height * 3
    else {
      throw RenderError(
        "a \(width)×\(height) frame's 8-bit output needs \(width * height * 3) bytes, not \(output.count)"
      )
    }
    let snapshot = controls.snapshot()
    let (passes, stateColour) = try onePassColour(snapshot)
    guard passes else { return nil }
    // A stage that takes the colour in does both in one step a row.
    let fused = try stateColour.flatMap { try stage.fused(with: $0) }
    let (colour, stage) = fused.map { (nil, $0) } ?? (stateColour, stage)
    let threads = Vips.configuration?.threads ?? ProcessInfo.processInfo.activeProcessorCount
    let bands = width * height >= 1 << 16 ? max(1, min(threads, height / 8)) : 1
    // Addresses cross to the worker threads as integers; each band reads and writes rows of its own.
    let (source, target) = (UInt(bitPattern: from), UInt(bitPattern: to))
    @Sendable func run(_ band: Int) {
      let scratch = colour.map { _ in UnsafeMutablePointer<UInt16>.allocate(capacity: width * 3) }
      defer { scratch?.deallocate() }
      for row in (band * height / bands)..<((band + 1) * height / bands) {
        guard let samples = UnsafePointer<UInt16>(bitPattern: source + UInt(row * width * 6)),
          let bytes = UnsafeMutablePointer<UInt8>(bitPattern: target + UInt(row * width * 3))
        else { return }
        if let colour, let scratch {
          colour.apply16(samples, scratch, pixels: width)
          stage.map(scratch, into: bytes, pixels: width)
        } else {
          stage.map(samples, into: bytes, pixels: width)
        }
      }
    }
    withExtendedLifetime(colour) {
      if bands == 1 {
        run(0)
      } else {
        DispatchQueue.concurrentPerform(iterations: bands, execute: run)
      }
    }
    return snapshot.generation
  }
}
