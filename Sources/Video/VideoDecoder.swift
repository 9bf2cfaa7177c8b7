import CFFmpeg

/// Decodes one video stream's packets into frames (send a packet, then receive every frame it gives).
final class VideoDecoder {
  /// FFmpeg's decoder context (owned).
  let context: UnsafeMutablePointer<AVCodecContext>
  private let path: String

  /// Opens a decoder for `stream` of the file at `path` (named in messages), with FFmpeg's automatic
  /// thread count, that decodes no frame over `pixelLimit` pixels (nil: FFmpeg's own limit) — so a
  /// frame that claims a larger size mid-stream fails to decode instead of being allocated.
  ///
  /// - Throws: ``VideoError`` when no decoder exists here for the stream's codec or it cannot be opened.
  init(stream: UnsafeMutablePointer<AVStream>, path: String, pixelLimit: Int? = nil)
    throws(VideoError)
  {
    self.path = path
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
    context.pointee.thread_count = 0
    if let pixelLimit { context.pointee.max_pixels = Int64(min(pixelLimit, Int(Int32.max))) }
    try VideoError.check(avcodec_open2(context, codec, nil), "\(path): cannot open the decoder")
  }

  deinit {
    var owned: UnsafeMutablePointer<AVCodecContext>? = context
    avcodec_free_context(&owned)
  }

  /// Sends `packet` to the decoder; nil flushes it at the end of the stream.
  ///
  /// - Throws: ``VideoError`` when the packet cannot be decoded.
  func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(VideoError) {
    let result = avcodec_send_packet(context, packet)
    // After a flush the decoder answers EOF to a second one: nothing to report.
    guard result != fd_averror_eof() else { return }
    try VideoError.check(result, "\(path): cannot decode a video packet")
  }

  /// Drops every frame and packet the decoder holds and leaves the end-of-stream state, for decoding
  /// again from a new position (after a seek).
  func flush() {
    avcodec_flush_buffers(context)
  }

  /// Receives the next decoded frame into `frame`; false when the decoder needs more input or is done.
  ///
  /// - Throws: ``VideoError`` when decoding fails.
  func receive(into frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> Bool {
    let result = avcodec_receive_frame(context, frame)
    if result == fd_averror_again() || result == fd_averror_eof() { return false }
    try VideoError.check(result, "\(path): cannot decode a video frame")
    return true
  }
}
