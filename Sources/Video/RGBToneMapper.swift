import CFFmpeg

/// Tone-maps frames of HDR video held as 16-bit R′G′B′ — packed rgb48le, full range, the HLG or PQ
/// codes as ``VideoTranscoder/play(choose:show:)`` and
/// ``VideoTranscoder/toneMappedFrame(at:render:still:)`` hand them over, rendered in the video's own
/// encoding or as decoded — to packed 8-bit SDR BT.709 RGB (rgb24), through the same steps as
/// `video --hdr sdr` (``ToneMapper``). Frames may be of any size (a viewfinder's); made by
/// ``VideoTranscoder/rgbToneMapper(width:height:)``.
public final class RGBToneMapper {
  /// The width of the frames mapped, in pixels.
  public let width: Int
  /// The height of the frames mapped, in pixels.
  public let height: Int
  private let mapper: ToneMapper
  private let frame: UnsafeMutablePointer<AVFrame>

  /// A mapper of `width × height` frames of video tagged `colour` (HLG or PQ; its range is that of
  /// the YUV, the RGB being full range) with `metadata`.
  ///
  /// - Throws: ``VideoError`` when the size is not positive, or libavfilter cannot build the chains.
  init(width: Int, height: Int, colour: ColourTags, metadata: HDRMetadata) throws(VideoError) {
    guard width > 0, height > 0 else {
      throw VideoError("cannot tone-map frames of \(width)×\(height) pixels")
    }
    (self.width, self.height) = (width, height)
    var tags = colour
    tags.range = AVCOL_RANGE_JPEG
    mapper = try ToneMapper(
      width: width, height: height, format: AV_PIX_FMT_RGB48LE, colour: tags, metadata: metadata,
      output: AV_PIX_FMT_RGB24)
    guard let frame = av_frame_alloc() else { throw VideoError("out of memory for video frames") }
    frame.pointee.width = Int32(width)
    frame.pointee.height = Int32(height)
    frame.pointee.format = AV_PIX_FMT_RGB48LE.rawValue
    frame.pointee.color_trc = tags.transfer
    frame.pointee.color_primaries = tags.primaries
    frame.pointee.colorspace = AVCOL_SPC_RGB
    frame.pointee.color_range = AVCOL_RANGE_JPEG
    guard av_frame_get_buffer(frame, 0) >= 0 else {
      var owned: UnsafeMutablePointer<AVFrame>? = frame
      av_frame_free(&owned)
      throw VideoError("out of memory for video frames")
    }
    self.frame = frame
  }

  deinit {
    var owned: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&owned)
  }

  /// `input` (`width × height` rgb48le pixels, packed, little-endian) tone-mapped into `output`
  /// (`width × height` rgb24 pixels, packed).
  ///
  /// - Throws: ``VideoError`` when a buffer is too small or a filter fails.
  public func map(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
    throws(VideoError)
  {
    let rowBytes = width * 6
    guard let from = input.baseAddress, input.count >= rowBytes * height else {
      throw VideoError(
        "a \(width)×\(height) frame to tone-map needs \(rowBytes * height) bytes, not \(input.count)"
      )
    }
    try VideoError.check(av_frame_make_writable(frame), "out of memory for video frames")
    guard let plane = frame.pointee.data.0 else {
      throw VideoError("out of memory for video frames")
    }
    let stride = Int(frame.pointee.linesize.0)
    for row in 0..<height {
      UnsafeMutableRawPointer(plane + row * stride).copyMemory(
        from: from + row * rowBytes, byteCount: rowBytes)
    }
    try mapper.map(frame, into: output)
  }
}
