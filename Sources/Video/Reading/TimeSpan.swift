/// The part of a video that `framedial video` processes: from `start` seconds for `duration` seconds,
/// both counted from the video stream's first timestamp (as `ffmpeg -ss T -i IN -t D` counts them).
///
/// Video frames are cut exactly: a frame is kept when its presentation time is at or after `start` and
/// before `start + duration` (decoding starts at the key frame before `start`); timestamps move back so
/// that the first frame kept is at 0. Audio and subtitle packets are copied whole, so they are cut at
/// packet granularity: a packet is kept when its own presentation time lies between the first frame
/// kept and `start + duration`, so the audio may start up to one packet (about 21 ms for AAC at 48 kHz)
/// after the first frame and end up to one packet before the last frame's end.
public struct TimeSpan: Sendable, Equatable {
  /// Seconds skipped at the start; 0 keeps the whole beginning.
  public var start: Double
  /// Seconds kept from `start`; nil keeps everything to the end.
  public var duration: Double?

  /// The span from `start` for `duration` seconds (the whole video by default).
  public init(start: Double = 0, duration: Double? = nil) {
    self.start = start
    self.duration = duration
  }

  /// True when the span is the whole video.
  public var isWhole: Bool { start <= 0 && duration == nil }
}
