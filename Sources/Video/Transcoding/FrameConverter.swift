import CFFmpeg

/// Converts frames between a video pixel format and packed RGB (8-bit rgb24, or 16-bit rgb48le for
/// deeper video) with libswscale, at the same size: accurate rounding, full chroma resolution, the
/// stream's own matrix and range.
final class FrameConverter {
  /// The flags of every conversion: bicubic chroma, accurate rounding, full chroma interpolation.
  static let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT

  private let context: OpaquePointer?
  private let planar: PlanarConversion?
  private let height: Int32

  /// A converter of `width × height` frames from `source` to `target` pixel format; the YUV side uses
  /// `matrix` and the range `fullRange` says (RGB is always full range). Between yuv420p or yuv420p10le
  /// and packed RGB with a BT.709, BT.601 or BT.2020 matrix, `planar` (when given) may supply the
  /// conversion.
  ///
  /// - Throws: ``VideoError`` when libswscale cannot convert between the two formats.
  init(
    width: Int, height: Int, from source: AVPixelFormat, to target: AVPixelFormat,
    matrix: AVColorSpace, fullRange: Bool, planar: PlanarConversionMaker? = nil
  ) throws(VideoError) {
    self.height = Int32(height)
    let sourceIsRGB = source == AV_PIX_FMT_RGB24 || source == AV_PIX_FMT_RGB48LE
    let format = Self.planarFormat(
      yuv: sourceIsRGB ? target : source, width: width, height: height, matrix: matrix,
      fullRange: fullRange)
    // The planar conversions write rgb24 from 8-bit frames and rgb48 from 10-bit ones, no other.
    let rgb = sourceIsRGB ? source : target
    if let format, (format.depth == 8) == (rgb == AV_PIX_FMT_RGB24), let planar,
      let conversion = planar(format)
    {
      self.planar = conversion
      context = nil
      return
    }
    self.planar = nil
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
    // sws_getCoefficients takes FFmpeg's AVColorSpace numbers (and falls back to BT.601 for others).
    let coefficients = sws_getCoefficients(Int32(matrix.rawValue))
    let yuvRange: Int32 = fullRange ? 1 : 0
    _ = sws_setColorspaceDetails(
      context, coefficients, sourceIsRGB ? 1 : yuvRange, coefficients, sourceIsRGB ? yuvRange : 1,
      0, 1 << 16, 1 << 16)
  }

  /// The planar format of `yuv` frames when a ``PlanarConversion`` may take them: yuv420p or
  /// yuv420p10le, BT.709, BT.601 (as sws_getCoefficients reads the matrix) or BT.2020 non-constant
  /// luminance.
  static func planarFormat(
    yuv: AVPixelFormat, width: Int, height: Int, matrix: AVColorSpace, fullRange: Bool
  ) -> PlanarFormat? {
    let depth = yuv == AV_PIX_FMT_YUV420P ? 8 : yuv == AV_PIX_FMT_YUV420P10LE ? 10 : 0
    let bt601 = [AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_UNSPECIFIED]
    let kind: PlanarFormat.Matrix
    switch matrix {
    case AVCOL_SPC_BT709: kind = .bt709
    case AVCOL_SPC_BT2020_NCL: kind = .bt2020
    case _ where bt601.contains(matrix): kind = .bt601
    default: return nil
    }
    guard depth > 0 else { return nil }
    return PlanarFormat(
      width: width, height: height, depth: depth, matrix: kind, fullRange: fullRange)
  }

  deinit {
    if let context { sws_freeContext(context) }
  }

  /// True when the caller's ``PlanarConversion`` converts, not libswscale.
  var isPlanar: Bool { planar != nil }

  /// Converts `frame` into the packed buffer at `target`, rows `stride` bytes apart.
  func convert(_ frame: UnsafePointer<AVFrame>, into target: UnsafeMutableRawPointer, stride: Int)
    throws(VideoError)
  {
    if let planar {
      let (planes, strides) = try Self.planes(of: frame.pointee)
      planar.toRGB(
        planes: planes.map { UnsafeRawPointer($0) }, strides: strides, into: target,
        rgbStride: stride)
      return
    }
    let rows = fd_scale_frame_to_packed(
      context, frame, target.assumingMemoryBound(to: UInt8.self), Int32(stride))
    guard rows == height else { throw VideoError("cannot convert a video frame to RGB") }
  }

  /// Converts the packed buffer at `source`, rows `stride` bytes apart, into `frame`'s planes.
  func convert(_ source: UnsafeRawPointer, stride: Int, into frame: UnsafeMutablePointer<AVFrame>)
    throws(VideoError)
  {
    if let planar {
      let (planes, strides) = try Self.planes(of: frame.pointee)
      planar.fromRGB(source, rgbStride: stride, into: planes, strides: strides)
      return
    }
    let rows = fd_scale_packed_to_frame(
      context, source.assumingMemoryBound(to: UInt8.self), Int32(stride), height, frame)
    guard rows > 0 else { throw VideoError("cannot convert an RGB frame back to video") }
  }

  /// The three planes of a planar `frame` and their row strides in bytes.
  private static func planes(of frame: AVFrame) throws(VideoError) -> (
    planes: [UnsafeMutableRawPointer], strides: [Int]
  ) {
    let data = frame.data
    let planes = [data.0, data.1, data.2].compactMap { $0.map { UnsafeMutableRawPointer($0) } }
    let lines = frame.linesize
    guard planes.count == 3 else { throw VideoError("a video frame has no planes") }
    return (planes, [lines.0, lines.1, lines.2].map { Int($0) })
  }
}
