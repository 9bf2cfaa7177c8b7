import CFFmpeg

/// One decoded frame's way through the caller: video pixels to packed RGB, the caller's render, RGB
/// back to the output's pixel format, with the frame's own timestamp.
final class FramePipeline {
  private let encoded: UnsafeMutablePointer<AVFrame>
  private let decoded: UnsafeMutablePointer<AVFrame>
  private let source: VideoSource
  private let inputFormat: AVPixelFormat
  private let outputFormat: AVPixelFormat
  private let toRGB: FrameConverter
  private let fromRGB: FrameConverter
  private let rgbIn: UnsafeMutableRawBufferPointer
  private let rgbOut: UnsafeMutableRawBufferPointer
  private let startTime: Int64
  private let timeBase: AVRational
  private let name: String
  private var index = 0
  private var lastTimestamp: Int64?

  private let rgbRowBytes: Int

  /// A pipeline for frames of `source`'s size in `inputFormat`, encoded in `outputFormat`, both
  /// converted with `matrix` and `fullRange` through packed RGB of `rgbSampleBytes` per sample (1:
  /// rgb24, 2: rgb48le); timestamps count in `timeBase` from `startTime`. `planar` may supply the
  /// conversions of yuv420p and yuv420p10le in place of libswscale.
  init(
    source: VideoSource, inputFormat: AVPixelFormat, outputFormat: AVPixelFormat,
    rgbSampleBytes: Int, matrix: AVColorSpace, fullRange: Bool, startTime: Int64,
    timeBase: AVRational, name: String, planar: PlanarConversionMaker? = nil
  ) throws(VideoError) {
    self.source = source
    self.inputFormat = inputFormat
    self.outputFormat = outputFormat
    self.startTime = startTime == fd_no_pts() ? 0 : startTime
    self.timeBase = timeBase
    self.name = name
    let rgbFormat = rgbSampleBytes == 2 ? AV_PIX_FMT_RGB48LE : AV_PIX_FMT_RGB24
    toRGB = try FrameConverter(
      width: source.width, height: source.height, from: inputFormat, to: rgbFormat,
      matrix: matrix, fullRange: fullRange, planar: planar)
    fromRGB = try FrameConverter(
      width: source.width, height: source.height, from: rgbFormat, to: outputFormat,
      matrix: matrix, fullRange: fullRange, planar: planar)
    rgbRowBytes = source.width * 3 * rgbSampleBytes
    let bytes = rgbRowBytes * source.height
    rgbIn = .allocate(byteCount: bytes, alignment: 64)
    rgbOut = .allocate(byteCount: bytes, alignment: 64)
    guard let decoded = av_frame_alloc(), let encoded = av_frame_alloc() else {
      throw VideoError("out of memory for video frames")
    }
    self.decoded = decoded
    self.encoded = encoded
    encoded.pointee.width = Int32(source.width)
    encoded.pointee.height = Int32(source.height)
    encoded.pointee.format = outputFormat.rawValue
    try VideoError.check(av_frame_get_buffer(encoded, 0), "out of memory for video frames")
  }

  deinit {
    rgbIn.deallocate()
    rgbOut.deallocate()
    var frames: [UnsafeMutablePointer<AVFrame>?] = [decoded, encoded]
    for index in frames.indices { av_frame_free(&frames[index]) }
  }

  /// The decoder's next frame, or nil when it needs more packets or is done.
  func next(from decoder: VideoDecoder) throws(VideoError) -> UnsafeMutablePointer<AVFrame>? {
    av_frame_unref(decoded)
    return try decoder.receive(into: decoded) ? decoded : nil
  }

  /// Converts `frame` to RGB, calls `render` with it, and returns the frame to encode, with `frame`'s
  /// timestamp: the result converted back, or `frame` itself when `render` left it unchanged (returned
  /// false) and the output's pixel format is the input's, so an unchanged frame loses nothing to the
  /// round trip through RGB.
  ///
  /// - Throws: ``VideoError`` when the frame's size or format differs from the stream's (a change
  ///   mid-stream), or a conversion fails; what `render` throws.
  func process(
    _ frame: UnsafeMutablePointer<AVFrame>, render: (VideoTranscoder.Frame) throws -> Bool
  ) throws -> UnsafeMutablePointer<AVFrame> {
    let (width, height) = (Int(frame.pointee.width), Int(frame.pointee.height))
    guard width == source.width, height == source.height,
      frame.pointee.format == inputFormat.rawValue
    else {
      throw VideoError(
        "\(name): frame \(index + 1) is \(width)×\(height) "
          + "\(VideoEncoder.name(of: AVPixelFormat(rawValue: frame.pointee.format))), not "
          + "\(source.width)×\(source.height) \(source.pixelFormatName): "
          + "video that changes size or format mid-stream is not processed")
    }
    guard let inBase = rgbIn.baseAddress, let outBase = rgbOut.baseAddress else {
      throw VideoError("\(name): empty frame buffers")
    }
    let stride = rgbRowBytes
    try toRGB.convert(frame, into: inBase, stride: stride)
    let timestamp = timestamp(of: frame)
    let time = Double(timestamp - startTime) * av_q2d(timeBase)
    let changed = try render(
      VideoTranscoder.Frame(
        input: UnsafeRawBufferPointer(rgbIn), output: rgbOut, time: time, index: index))
    index += 1
    guard changed || outputFormat != inputFormat else {
      frame.pointee.pts = timestamp
      frame.pointee.pict_type = AV_PICTURE_TYPE_NONE
      return frame
    }
    if !changed { outBase.copyMemory(from: inBase, byteCount: rgbIn.count) }
    try VideoError.check(av_frame_make_writable(encoded), "out of memory for video frames")
    try fromRGB.convert(outBase, stride: stride, into: encoded)
    encoded.pointee.pts = timestamp
    encoded.pointee.pict_type = AV_PICTURE_TYPE_NONE
    return encoded
  }

  /// The frame's presentation timestamp: FFmpeg's best estimate, else one tick after the previous
  /// frame's.
  private func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Int64 {
    var timestamp = frame.pointee.best_effort_timestamp
    if timestamp == fd_no_pts() { timestamp = frame.pointee.pts }
    if timestamp == fd_no_pts() { timestamp = (lastTimestamp ?? startTime - 1) + 1 }
    lastTimestamp = timestamp
    return timestamp
  }
}
