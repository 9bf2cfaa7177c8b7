import CFFmpeg

/// One frame's buffers on its way through the stages of a transcode, reused frame after frame: the
/// decoded frame (a reference), its packed RGB, the caller's output, and where it belongs in time.
final class FrameSlot: @unchecked Sendable {
  /// The decoded frame, referenced until the slot is reused.
  let decoded: UnsafeMutablePointer<AVFrame>
  /// The decoded frame as packed RGB.
  let rgbIn: UnsafeMutableRawBufferPointer
  /// Where the caller writes the processed frame.
  let rgbOut: UnsafeMutableRawBufferPointer
  /// The frame's presentation timestamp, as decoded.
  var timestamp: Int64 = 0
  /// The timestamp it is encoded with (a trimmed start moves it earlier).
  var outputTimestamp: Int64 = 0
  /// Presentation time in seconds from the video stream's first timestamp.
  var time = 0.0
  /// The frame's number from 0, in presentation order.
  var index = 0
  /// True once `rgbIn` holds the decoded frame.
  var rgbReady = false

  /// Buffers for frames of `bytes` bytes of packed RGB.
  init(bytes: Int) throws(VideoError) {
    guard let decoded = av_frame_alloc() else { throw VideoError("out of memory for video frames") }
    self.decoded = decoded
    rgbIn = .allocate(byteCount: bytes, alignment: 64)
    rgbOut = .allocate(byteCount: bytes, alignment: 64)
  }

  deinit {
    rgbIn.deallocate()
    rgbOut.deallocate()
    var frame: UnsafeMutablePointer<AVFrame>? = decoded
    av_frame_free(&frame)
  }
}
