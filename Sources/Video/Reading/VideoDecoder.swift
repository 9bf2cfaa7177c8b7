import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// Decodes one video stream's packets into frames (send a packet, then receive every frame it gives).
final class VideoDecoder {
  /// FFmpeg's decoder context (owned).
  let context: UnsafeMutablePointer<AVCodecContext>
  private let path: String
  /// What checks the decoding for damage (nil: nothing but failures, as FFmpeg returns them).
  private let watch: DamageWatch?

  /// Opens a decoder for `stream` of the file at `path` (named in messages), with `threads` threads
  /// (0: FFmpeg's automatic count), that decodes no frame over `pixelLimit` pixels (nil: FFmpeg's own
  /// limit) — so a frame that claims a larger size mid-stream fails to decode instead of being
  /// allocated. With a
  /// `watch`, it checks as strictly as the watch's level asks
  /// (``VideoFailOn/errorRecognition(for:)``),
  /// its lines are the watch's, and what it refuses, conceals or marks corrupt goes to the watch,
  /// which refuses the file or lets the damage through.
  ///
  /// - Throws: ``VideoError`` when no decoder exists here for the stream's codec or it cannot be opened.
  init(
    stream: UnsafeMutablePointer<AVStream>, path: String, pixelLimit: Int? = nil,
    watch: DamageWatch? = nil, threads: Int32 = 0
  ) throws(VideoError) {
    self.path = path
    self.watch = watch
    guard let parameters = stream.pointee.codecpar else {
      throw VideoError("\(path): its video stream has no codec parameters")
    }
    guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
      let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "?"
      throw VideoError("\(path): no decoder for its \(name) video here")
    }
    guard let context = avcodec_alloc_context3(codec) else {
      throw VideoError("\(path): out of memory for a decoder")
    }
    self.context = context
    try VideoError.check(
      avcodec_parameters_to_context(context, parameters), "\(path): cannot set up the decoder")
    context.pointee.pkt_timebase = stream.pointee.time_base
    context.pointee.thread_count = threads
    if let pixelLimit { context.pointee.max_pixels = Int64(min(pixelLimit, Int(Int32.max))) }
    if let watch {
      context.pointee.err_recognition = watch.level.errorRecognition(for: codec.pointee.id)
      context.pointee.opaque = watch.lines.key
    }
    try VideoError.check(avcodec_open2(context, codec, nil), "\(path): cannot open the decoder")
  }

  deinit {
    var owned: UnsafeMutablePointer<AVCodecContext>? = context
    avcodec_free_context(&owned)
  }

  /// Sends `packet` to the decoder; nil flushes it at the end of the stream.
  ///
  /// - Throws: ``VideoError`` when the packet cannot be decoded (with a watch, when its level
  ///   refuses that).
  func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(VideoError) {
    watch?.sent(packet)
    let result = avcodec_send_packet(context, packet)
    // After a flush the decoder answers EOF to a second one: nothing to report.
    guard result != fd_averror_eof() else { return }
    if result < 0, let watch, Self.isDamage(result) {
      try watch.refused(result)
      return
    }
    try VideoError.check(result, "\(path): cannot decode a video packet")
  }

  /// Drops every frame and packet the decoder holds and leaves the end-of-stream state, for decoding
  /// again from a new position (after a seek).
  func flush() {
    avcodec_flush_buffers(context)
    watch?.flushed()
  }

  /// Receives the next decoded frame into `frame`; false when the decoder needs more input or is done.
  ///
  /// - Throws: ``VideoError`` when decoding fails (with a watch, when its level refuses that or the
  ///   damage the frame shows).
  func receive(into frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> Bool {
    // A refused frame, let through, is passed over: the next one may be whole (at the end of the
    // stream, each of the decoder's threads gives its own).
    for _ in 0..<Self.framesRefusedInARow {
      let result = avcodec_receive_frame(context, frame)
      if result == fd_averror_again() || result == fd_averror_eof() {
        try watch?.checkLines()
        return false
      }
      if result >= 0 {
        try watch?.received(frame)
        return true
      }
      guard let watch, Self.isDamage(result) else {
        try VideoError.check(result, "\(path): cannot decode a video frame")
        return false
      }
      try watch.refused(result)
    }
    throw VideoError("\(path): cannot decode a video frame: the decoder refuses one after another")
  }

  /// How many frames in a row the decoder may refuse before decoding stops.
  private static let framesRefusedInARow = 64

  /// True when FFmpeg's error `code` from the decoder says its input is damaged, not that memory
  /// ran out or that it is used wrongly.
  private static func isDamage(_ code: Int32) -> Bool {
    code != fd_averror_again() && code != -ENOMEM && code != -EINVAL
  }
}
