import CFFmpeg

/// Encodes frames with libx264 or libx265 at a constant rate factor, keeping each frame's timestamp.
final class VideoEncoder {
  /// FFmpeg's encoder context (owned).
  let context: UnsafeMutablePointer<AVCodecContext>

  /// What the encoder is given, copied from the input's decoder and stream.
  struct Format {
    var width: Int
    var height: Int
    var pixelFormat: AVPixelFormat
    var timeBase: AVRational
    var frameRate: AVRational
    var sampleAspect: AVRational
    var colour: ColourTags
    /// libx265's further `x265-params` (`key=value`), e.g. the HDR VUI and SEI of ``HDREncoding``.
    var x265Parameters: [String] = []
  }

  /// Opens `codec`'s encoder for frames of `format`, with `settings`' CRF and preset; `globalHeader`
  /// when the container keeps codec headers out of the stream (MP4, MOV, Matroska).
  ///
  /// - Throws: ``VideoError`` when the encoder is missing here or refuses the settings.
  init(codec: VideoCodec, settings: EncoderSettings, format: Format, globalHeader: Bool)
    throws(VideoError)
  {
    guard let encoder = avcodec_find_encoder_by_name(codec.encoderName) else {
      throw VideoError("\(codec.encoderName) (for \(codec.rawValue) output) is not available here")
    }
    guard let context = avcodec_alloc_context3(encoder) else {
      throw VideoError("out of memory for the \(codec.encoderName) encoder")
    }
    self.context = context
    context.pointee.width = Int32(format.width)
    context.pointee.height = Int32(format.height)
    context.pointee.pix_fmt = format.pixelFormat
    context.pointee.time_base = format.timeBase
    context.pointee.framerate = format.frameRate
    context.pointee.sample_aspect_ratio = format.sampleAspect
    context.pointee.colorspace = format.colour.matrix
    context.pointee.color_range = format.colour.range
    context.pointee.color_primaries = format.colour.primaries
    context.pointee.color_trc = format.colour.transfer
    context.pointee.thread_count = 0
    if globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
    let options: [(String, String)] =
      [("crf", String(settings.crf)), ("preset", settings.preset)]
      + (codec == .hevc
        ? [("x265-params", (["log-level=error"] + format.x265Parameters).joined(separator: ":"))]
        : [])
    for (name, value) in options {
      try VideoError.check(
        av_opt_set(context.pointee.priv_data, name, value, 0),
        "\(codec.encoderName): cannot set \(name) to \(value)")
    }
    try VideoError.check(
      avcodec_open2(context, encoder, nil),
      "\(codec.encoderName) cannot encode \(format.width)×\(format.height) "
        + "\(Self.name(of: format.pixelFormat)) with preset \(settings.preset), crf \(settings.crf)"
    )
  }

  deinit {
    var owned: UnsafeMutablePointer<AVCodecContext>? = context
    avcodec_free_context(&owned)
  }

  /// The pixel formats `codec`'s encoder accepts here (empty when it is missing).
  static func pixelFormats(of codec: VideoCodec) -> [AVPixelFormat] {
    guard let encoder = avcodec_find_encoder_by_name(codec.encoderName),
      var format = encoder.pointee.pix_fmts
    else { return [] }
    var formats: [AVPixelFormat] = []
    while format.pointee != AV_PIX_FMT_NONE {
      formats.append(format.pointee)
      format += 1
    }
    return formats
  }

  /// True when `codec`'s encoder exists here.
  static func isAvailable(_ codec: VideoCodec) -> Bool {
    avcodec_find_encoder_by_name(codec.encoderName) != nil
  }

  /// FFmpeg's name of a pixel format ("yuv420p").
  static func name(of format: AVPixelFormat) -> String {
    av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
  }

  /// Sends `frame` to the encoder; nil flushes it at the end.
  ///
  /// - Throws: ``VideoError`` when the encoder refuses the frame.
  func send(_ frame: UnsafePointer<AVFrame>?) throws(VideoError) {
    let result = avcodec_send_frame(context, frame)
    guard result != fd_averror_eof() else { return }
    try VideoError.check(result, "cannot encode a video frame")
  }

  /// Receives the next encoded packet into `packet`; false when the encoder needs more frames or is
  /// done.
  ///
  /// - Throws: ``VideoError`` when encoding fails.
  func receive(into packet: UnsafeMutablePointer<AVPacket>) throws(VideoError) -> Bool {
    let result = avcodec_receive_packet(context, packet)
    if result == fd_averror_again() || result == fd_averror_eof() { return false }
    try VideoError.check(result, "cannot encode a video frame")
    return true
  }
}
