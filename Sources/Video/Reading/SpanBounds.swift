import CFFmpeg

/// A ``TimeSpan`` in the video stream's timestamps, and where packets of other streams fall in it.
struct SpanBounds {
  /// The timestamp the span starts at (0 s is the stream's first timestamp).
  var start: Int64
  /// The first timestamp kept, nil when the span starts at the beginning.
  var lower: Int64?
  /// The first timestamp past the span, nil when it runs to the end.
  var upper: Int64?
  /// How many ticks kept frames and packets are moved earlier.
  var shift: Int64

  /// Bounds from `start`: `lower` nil keeps the beginning, `upper` nil runs to the end.
  init(start: Int64, lower: Int64?, upper: Int64?, shift: Int64) {
    self.start = start
    self.lower = lower
    self.upper = upper
    self.shift = shift
  }

  /// The bounds of `span` in a stream whose first timestamp is `origin`, counting in `timeBase`. No
  /// time converts out of range: a start past what timestamps can hold (``largestTimestamp``) is held
  /// there, so it lies past the end of any video, and an end past it runs to the end.
  init(span: TimeSpan, origin: Int64, timeBase: AVRational) {
    let tick = av_q2d(timeBase)
    let start = Self.timestamp(origin, plus: max(0, span.start), tick: tick)
    let end = span.duration.map { Self.timestamp(start, plus: $0, tick: tick) }
    self.init(
      start: start, lower: span.start > 0 ? start : nil,
      upper: end.flatMap { $0 < Self.largestTimestamp ? $0 : nil },
      shift: span.start > 0 ? start : 0)
  }

  /// The latest timestamp a span is given: a quarter of `Int64`'s range, so that shifting it and
  /// rescaling it to another stream's time base stay in range.
  static let largestTimestamp = Int64.max / 4

  /// `timestamp` moved on by `seconds` in ticks of `tick` seconds, at most ``largestTimestamp``.
  static func timestamp(_ timestamp: Int64, plus seconds: Double, tick: Double) -> Int64 {
    let ticks = (seconds / tick).rounded()
    guard ticks.isFinite, abs(ticks) < Double(largestTimestamp) else {
      return ticks < 0 ? -largestTimestamp : largestTimestamp
    }
    let (sum, overflow) = timestamp.addingReportingOverflow(Int64(ticks))
    return overflow ? largestTimestamp : min(sum, largestTimestamp)
  }

  /// Starts a trimmed span at the first frame kept, at `timestamp`: it is written at 0, and other
  /// streams' packets before it are left out. (A span from the beginning is left as it is.)
  mutating func settle(firstFrame timestamp: Int64) {
    guard lower != nil else { return }
    lower = timestamp
    shift = timestamp
  }

  /// Where a packet falls.
  enum Place { case before, inside, after }

  /// Where `packet`, of a stream counting in `timeBase`, falls (by its presentation time, else its
  /// decoding time; a packet with neither is inside); a packet inside is shifted to the output's times.
  func place(
    _ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational, videoTimeBase: AVRational
  ) -> Place {
    func rescaled(_ value: Int64) -> Int64 { av_rescale_q(value, videoTimeBase, timeBase) }
    let time = packet.pointee.pts != fd_no_pts() ? packet.pointee.pts : packet.pointee.dts
    if time != fd_no_pts() {
      if let lower, time < rescaled(lower) { return .before }
      if let upper, time >= rescaled(upper) { return .after }
    }
    let shift = rescaled(self.shift)
    if shift != 0 {
      if packet.pointee.pts != fd_no_pts() { packet.pointee.pts -= shift }
      if packet.pointee.dts != fd_no_pts() { packet.pointee.dts -= shift }
    }
    return .inside
  }
}
