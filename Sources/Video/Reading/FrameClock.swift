import CFFmpeg

/// Gives each decoded frame of a stream its presentation timestamp: FFmpeg's best estimate, else the
/// frame's own, else one tick after the previous frame's. Two clocks fed the same frames from the same
/// position give the same timestamps.
struct FrameClock {
  /// The stream's first timestamp (0 when unknown): a first frame without any timestamp gets it.
  let startTime: Int64
  private var lastTimestamp: Int64?

  /// A clock for a stream whose first timestamp is `startTime` (AV_NOPTS_VALUE: unknown, counted as 0).
  init(startTime: Int64) {
    self.startTime = startTime == fd_no_pts() ? 0 : startTime
  }

  /// `frame`'s presentation timestamp; called once per frame, in order.
  mutating func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Int64 {
    var timestamp = frame.pointee.best_effort_timestamp
    if timestamp == fd_no_pts() { timestamp = frame.pointee.pts }
    if timestamp == fd_no_pts() { timestamp = (lastTimestamp ?? startTime - 1) + 1 }
    lastTimestamp = timestamp
    return timestamp
  }
}
