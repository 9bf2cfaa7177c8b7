import CFFmpeg

/// Converts frames between a video pixel format and packed RGB (8-bit rgb24, or 16-bit rgb48le for
/// deeper video) with libswscale, at the same size: accurate rounding, full chroma resolution, the
/// stream's own matrix and range.
final class FrameConverter {
  /// The flags of every conversion: bicubic chroma, accurate rounding, full chroma interpolation.
  static let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT

  private let context: OpaquePointer
  private let height: Int32

  /// A converter of `width × height` frames from `source` to `target` pixel format; the YUV side uses
  /// `matrix` and the range `fullRange` says (RGB is always full range).
  ///
  /// - Throws: ``VideoError`` when libswscale cannot convert between the two formats.
  init(
    width: Int, height: Int, from source: AVPixelFormat, to target: AVPixelFormat,
    matrix: AVColorSpace, fullRange: Bool
  ) throws(VideoError) {
    guard
      let context = sws_getContext(
        Int32(width), Int32(height), source, Int32(width), Int32(height), target, Self.flags,
        nil, nil, nil)
    else {
      let names = [source, target].map {
        av_get_pix_fmt_name($0).map { String(cString: $0) } ?? "?"
      }
      throw VideoError("cannot convert video frames from \(names[0]) to \(names[1])")
    }
    self.context = context
    self.height = Int32(height)
    // sws_getCoefficients takes FFmpeg's AVColorSpace numbers (and falls back to BT.601 for others).
    let coefficients = sws_getCoefficients(Int32(matrix.rawValue))
    let yuvRange: Int32 = fullRange ? 1 : 0
    let sourceIsRGB = source == AV_PIX_FMT_RGB24 || source == AV_PIX_FMT_RGB48LE
    _ = sws_setColorspaceDetails(
      context, coefficients, sourceIsRGB ? 1 : yuvRange, coefficients, sourceIsRGB ? yuvRange : 1,
      0, 1 << 16, 1 << 16)
  }

  deinit {
    sws_freeContext(context)
  }

  /// Converts `frame` into the packed buffer at `target`, rows `stride` bytes apart.
  func convert(_ frame: UnsafePointer<AVFrame>, into target: UnsafeMutableRawPointer, stride: Int)
    throws(VideoError)
  {
    let rows = fd_scale_frame_to_packed(
      context, frame, target.assumingMemoryBound(to: UInt8.self), Int32(stride))
    guard rows == height else { throw VideoError("cannot convert a video frame to RGB") }
  }

  /// Converts the packed buffer at `source`, rows `stride` bytes apart, into `frame`'s planes.
  func convert(_ source: UnsafeRawPointer, stride: Int, into frame: UnsafeMutablePointer<AVFrame>)
    throws(VideoError)
  {
    let rows = fd_scale_packed_to_frame(
      context, source.assumingMemoryBound(to: UInt8.self), Int32(stride), height, frame)
    guard rows > 0 else { throw VideoError("cannot convert an RGB frame back to video") }
  }
}
