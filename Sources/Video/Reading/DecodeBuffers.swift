import CFFmpeg

/// A packet and a frame for one decoding loop, allocated together and freed together by ``free()``
/// (call it in a `defer` right after making them).
struct DecodeBuffers {
  let packet: UnsafeMutablePointer<AVPacket>
  let frame: UnsafeMutablePointer<AVFrame>

  /// - Throws: ``VideoError`` "out of memory for `purpose`".
  init(for purpose: String) throws(VideoError) {
    guard let packet = av_packet_alloc() else { throw VideoError("out of memory for \(purpose)") }
    guard let frame = av_frame_alloc() else {
      var owned: UnsafeMutablePointer<AVPacket>? = packet
      av_packet_free(&owned)
      throw VideoError("out of memory for \(purpose)")
    }
    (self.packet, self.frame) = (packet, frame)
  }

  /// Frees the packet and the frame.
  func free() {
    var packet: UnsafeMutablePointer<AVPacket>? = packet
    var frame: UnsafeMutablePointer<AVFrame>? = frame
    av_packet_free(&packet)
    av_frame_free(&frame)
  }
}
