import Controls
import FrameDial
import Synchronization
import Vips

/// A frame renderer behind a `framedial_frame_renderer *` handle: its live control state, which any
/// thread may change, and the renderer, which one thread at a time may use (a second is told it is busy).
final class FrameHandle: HandleObject, @unchecked Sendable {
  static let kind = Handles.Kind.renderer
  // `renderer` is touched only between a successful `busy` exchange and its reset.
  let live: LiveControlState
  let renderer: FrameRenderer
  let busy = Atomic<Bool>(false)

  init(_ renderer: FrameRenderer, live: LiveControlState) {
    self.renderer = renderer
    self.live = live
  }

  /// The largest side of a frame, as `framedial frames --size` allows.
  static let largestSide = 32_768
  /// The plans of every frame renderer made through the C API (thread-safe, bounded).
  static let cache = PlanCache()
}

/// `framedial_frame_renderer_new`: a renderer for `width × height` frames in `pixel_format` (`rgb24`,
/// `rgba`, `bgra`, `rgb48le`, `rgba64le`), rows `row_stride` bytes apart (0: packed), following the
/// identity state.
@_cdecl("framedial_frame_renderer_new")
public func cFrameRendererNew(
  _ width: Int32, _ height: Int32, _ pixelFormat: UnsafePointer<CChar>?, _ rowStride: Int,
  _ renderer: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error, into: renderer, named: "renderer") {
    let name = try CString.read(pixelFormat, "the pixel format")
    guard let format = PixelFormat(rawValue: name.lowercased()) else {
      let names = PixelFormat.allCases.map { $0.rawValue }.joined(separator: ", ")
      throw CallError(.invalidArgument, "pixel format must be one of \(names), not \"\(name)\"")
    }
    let sides = 1...FrameHandle.largestSide
    guard sides.contains(Int(width)), sides.contains(Int(height)) else {
      throw CallError(
        .invalidArgument,
        "frame size \(width)×\(height) is not allowed: each side must be 1 … \(FrameHandle.largestSide)"
      )
    }
    guard Int(width) * Int(height) <= LoadOptions.defaultPixelLimit else {
      throw CallError(
        .invalidArgument,
        "frame size \(width)×\(height) has more than \(LoadOptions.defaultPixelLimit) pixels")
    }
    let packed = Int(width) * format.bands
    guard rowStride == 0 || (rowStride >= packed && rowStride <= 1 << 30) else {
      throw CallError(
        .invalidArgument,
        "row stride \(rowStride) must be 0 (packed) or from \(packed) (a row of \(width) "
          + "\(name) pixels) to \(1 << 30) bytes")
    }
    try Library.start()
    let live = LiveControlState()
    let frames = try FrameRenderer(
      width: Int(width), height: Int(height), pixelFormat: format,
      rowStride: rowStride == 0 ? nil : rowStride, controls: live, cache: FrameHandle.cache)
    return try Handles.register(FrameHandle(frames, live: live))
  }
}

/// `framedial_frame_renderer_set_state`: the state the next frames render with (NULL: the identity
/// state); any thread, any time.
@_cdecl("framedial_frame_renderer_set_state")
public func cFrameRendererSetState(
  _ renderer: OpaquePointer?, _ state: OpaquePointer?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let frames = try Handles.object(renderer, as: FrameHandle.self, "renderer")
    frames.live.set(try StateHandle.state(state))
  }
}

/// `framedial_frame_renderer_render`: renders the frame at `input` into `output`, both laid out as the
/// renderer's frames, and writes the generation of the state it used into `generation` (optional).
@_cdecl("framedial_frame_renderer_render")
public func cFrameRendererRender(
  _ renderer: OpaquePointer?, _ input: UnsafeRawPointer?, _ inputSize: Int,
  _ output: UnsafeMutableRawPointer?, _ outputSize: Int,
  _ generation: UnsafeMutablePointer<UInt64>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let frames = try Handles.object(renderer, as: FrameHandle.self, "renderer")
    guard let input else { throw CallError(.invalidArgument, "the input frame is a null pointer") }
    guard let output else {
      throw CallError(.invalidArgument, "the output frame is a null pointer")
    }
    let layout = frames.renderer.layout
    let needed = layout.requiredBytes
    guard inputSize >= needed, outputSize >= needed else {
      throw CallError(
        .invalidArgument,
        "frame buffers of \(inputSize) (input) and \(outputSize) (output) bytes are too short: "
          + "\(layout.width)×\(layout.height) \(frames.renderer.pixelFormat.rawValue) with rows "
          + "\(layout.rowStride) bytes apart needs \(needed)")
    }
    let (from, to) = (UInt(bitPattern: input), UInt(bitPattern: output))
    guard from &+ UInt(needed) <= to || to &+ UInt(needed) <= from else {
      throw CallError(.invalidArgument, "the input and output frames overlap; use two buffers")
    }
    guard
      frames.busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    else {
      throw CallError(
        .busy, "the renderer is rendering on another thread; give each thread its own renderer")
    }
    defer { frames.busy.store(false, ordering: .releasing) }
    let used = try frames.renderer.render(
      UnsafeRawBufferPointer(start: input, count: needed),
      into: UnsafeMutableRawBufferPointer(start: output, count: needed))
    generation?.pointee = used
  }
}

/// `framedial_frame_renderer_free`: releases a renderer (NULL, freed and unknown pointers are ignored).
@_cdecl("framedial_frame_renderer_free")
public func cFrameRendererFree(_ renderer: OpaquePointer?) {
  Handles.release(renderer, as: FrameHandle.self)
}
