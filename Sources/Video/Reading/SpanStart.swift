import CFFmpeg
import Foundation

extension VideoTranscoder {
  /// Settles a trimmed `cut` on its first frame, before the transcode reads the span: decodes from the
  /// key frame before the start to the first frame at or after it, passing over every other stream's
  /// packets (none is held, however far the video lies from them in the file), then seeks back to
  /// that key frame for the transcode. A span from the beginning is left as it is.
  ///
  /// - Throws: ``VideoError`` naming the file when it cannot be sought, read or decoded, or when no
  ///   frame lies at or after the start (`seconds`, for the message): then the start is past the end of
  ///   the video, and the message says how long the video lasts.
  func settleStart(of cut: inout SpanBounds, seconds: Double) throws(VideoError) {
    guard let lower = cut.lower else { return }
    watch.begin()
    defer { watch.end() }
    try input.seekVideo(before: cut.start)
    let buffers = try DecodeBuffers(for: "a frame")
    defer { buffers.free() }
    let (packet, frame) = (buffers.packet, buffers.frame)
    let stream = input.videoStream.pointee
    var clock = FrameClock(startTime: stream.start_time)
    var first: Int64?
    var latest: Int64?
    func drain() throws(VideoError) {
      while first == nil, try decoder.receive(into: frame) {
        let timestamp = clock.timestamp(of: frame)
        av_frame_unref(frame)
        if timestamp >= lower {
          first = timestamp
        } else {
          latest = max(latest ?? timestamp, timestamp)
        }
      }
    }
    while first == nil, try watch.read(input, into: packet) {
      guard Int(packet.pointee.stream_index) == input.videoIndex else { continue }
      try decoder.send(packet)
      try drain()
    }
    if first == nil {
      try decoder.send(nil)
      try drain()
    }
    decoder.flush()
    guard let first else {
      let start = "the start, \(Self.secondsText(seconds))"
      guard let latest else {
        throw VideoError("\(input.path): no video frame lies at or after \(start)")
      }
      // The last frame lasts one frame period, when the rate is known.
      let period = source.frameRate > 0 ? 1 / source.frameRate : 0
      let length = Double(latest - clock.startTime) * av_q2d(stream.time_base) + period
      throw VideoError(
        "\(input.path): \(start), is past the end of its video, which lasts "
          + Self.secondsText(length))
    }
    cut.settle(firstFrame: first)
    try input.seekVideo(before: cut.start)
  }

  /// Seconds as text, to the millisecond: "12.5 s".
  static func secondsText(_ seconds: Double) -> String {
    String(format: "%g s", (seconds * 1000).rounded() / 1000)
  }
}
