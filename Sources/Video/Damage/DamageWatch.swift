import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// Watches the decoding of one video file for damage and refuses the file as far as its
/// ``VideoFailOn`` level says, with one message naming the file and the time where the damage
/// starts; what the level lets through is reported afterwards (``report``).
///
/// It sees the packets read (``read(_:into:)``: the demuxer failing, a packet cut short, the end of
/// the file before the end its index gives), what the decoder does with them (``VideoDecoder`` calls
/// ``sent(_:)``, ``received(_:)`` and ``refused(_:)``: a refused packet, a frame marked corrupt or
/// concealed) and what FFmpeg says meanwhile (``DecoderLines``). The decoder's threads report damage a
/// few packets after the one it is in (and FFmpeg's error concealment marks a frame only when it wins
/// a race with them), so where damage starts is found again by decoding that stretch of the file on
/// one thread (``located(near:)``), where what FFmpeg says comes while the packet it is about is
/// decoded.
final class DamageWatch {
  /// The level: what is refused.
  let level: VideoFailOn
  /// The decoder's and demuxer's lines about the file.
  let lines = DecoderLines()
  private let path: String
  /// True for a watch over a decoder on one thread: damage is in the packet last sent.
  private let oneThread: Bool
  private var timeBase = AVRational(num: 1, den: 1)
  private var startTime: Int64 = 0
  private var videoIndex = -1
  /// Where the index says the stream ends early.
  private(set) var cutShort: CutShort?
  /// The first timestamp of the frames not needed (the end of a span, past a `--frame-at` frame);
  /// damage from there on is not the output's. nil: every frame is needed.
  var until: Int64?

  // What the current pass met.
  private var pending: [Int64] = []
  private var lastSent: Int64?
  /// The decoding timestamp of the last packet sent (its presentation timestamp when it has none).
  private var lastSentDecoded: Int64?
  /// The timestamps of the last frames received, oldest first (as many as FFmpeg's decoder threads
  /// can be ahead).
  private var recent: [Int64] = []
  private var lastFrame: Int64?
  private var readEnd: Int64?
  private var linesSeen = 0
  private var flagged = 0
  private var refusedPackets = 0
  /// Where the first damage was noticed.
  private var firstNoticed: Notice?

  /// Where damage was noticed: in one of the frames presented from `from` on and decoded up to
  /// `through` (a decoding timestamp).
  private struct Notice {
    var from: Int64
    var through: Int64
  }
  private var cutAt: Int64?
  private var indexCutNoted = false

  /// The largest frame decoded, in pixels, when the file is decoded again (nil: no limit).
  private let pixelLimit: Int?

  /// A watch at `level` over the file at `path` (named in messages) decoded with frames of at most
  /// `pixelLimit` pixels, over a decoder on `oneThread` or on FFmpeg's threads; ``adopt(_:)`` gives
  /// it the file once it is open.
  init(level: VideoFailOn, path: String, pixelLimit: Int?, oneThread: Bool = false) {
    self.level = level
    self.path = path
    self.pixelLimit = pixelLimit
    self.oneThread = oneThread
  }

  deinit {
    lines.close()
  }

  /// Takes the opened file's video stream: its timing, its index's end.
  func adopt(_ input: InputFile) {
    let stream = input.videoStream.pointee
    timeBase = stream.time_base
    startTime = stream.start_time == fd_no_pts() ? 0 : stream.start_time
    videoIndex = input.videoIndex
    cutShort = input.cutShort
  }

  /// The file is open: FFmpeg's lines are counted from now on (see ``DecoderLines/opened()``).
  func opened() { lines.opened() }

  /// Starts a pass of reading and decoding on the calling thread (until ``end()``): FFmpeg's lines
  /// from there are the file's.
  func begin() { lines.attach() }

  /// Ends the calling thread's pass.
  func end() { lines.detach() }

  /// Forgets what earlier passes met, for a new write, frame or playback.
  func reset() {
    lines.reset()
    (pending, lastSent, lastSentDecoded, recent) = ([], nil, nil, [])
    (lastFrame, readEnd, linesSeen) = (nil, nil, 0)
    (flagged, refusedPackets, firstNoticed, cutAt) = (0, 0, nil, nil)
    (indexCutNoted, until) = (false, nil)
  }

  /// What the passes since ``reset()`` met and the level let through, or nil when they met nothing;
  /// where the first damage lies is found again on one thread (``located(near:)``).
  func report() -> VideoDamage? {
    let count = lines.count
    guard count > 0 || flagged > 0 || refusedPackets > 0 || cutAt != nil else { return nil }
    let first = Self.firstKinds.lazy.compactMap { self.lines.tally($0).first }.first
    let concealed = lines.tally(.concealed).count
    return VideoDamage(
      damagedFrames: max(flagged, concealed) + refusedPackets,
      firstDamage: firstNoticed.map { seconds(located($0) ?? $0.from) },
      firstMessage: first, messages: count, cutAt: cutAt.map(seconds),
      cutShort: indexCutNoted ? cutShort : nil)
  }

  /// The kinds of line a message quotes first.
  private static let firstKinds: [DecoderLines.Kind] = [
    .demuxerError, .decoderError, .concealed, .warning,
  ]

  // MARK: Reading

  /// Reads the next packet of `input` into `packet` (unreferenced first); false at the end of the
  /// file, or where the demuxer cannot read on when the level lets that through.
  ///
  /// - Throws: ``VideoError`` naming the file when the level refuses what reading met: a stream that
  ///   ends before its index says (from ``VideoFailOn/truncated``), a packet cut short, the demuxer
  ///   failing; or when memory runs out.
  func read(_ input: InputFile, into packet: UnsafeMutablePointer<AVPacket>) throws(VideoError)
    -> Bool
  {
    av_packet_unref(packet)
    let result = av_read_frame(input.context, packet)
    if result == fd_averror_eof() {
      try ended()
      return false
    }
    if result < 0 {
      guard result != -ENOMEM else { throw VideoError("\(path): out of memory for a packet") }
      try checkLines()
      try cut(at: readEnd, reason: "it cannot be read on: \(VideoError.reason(result))")
      try ended()
      return false
    }
    if Int(packet.pointee.stream_index) == videoIndex {
      let packetTime = packet.pointee.pts != fd_no_pts() ? packet.pointee.pts : packet.pointee.dts
      if packetTime != fd_no_pts() {
        readEnd = max(readEnd ?? packetTime, packetTime + max(packet.pointee.duration, 0))
        if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
          try cut(at: packetTime, reason: "a packet is cut short")
        }
      }
    }
    try checkLines()
    return true
  }

  /// Refuses, or notes, a stream that ends early as the index says, unless that lies past ``until``:
  /// before any decoding, so that nothing is done in vain.
  ///
  /// - Throws: ``VideoError`` naming the file, the time and the frames, from
  ///   ``VideoFailOn/truncated`` on.
  func checkIndex() throws(VideoError) {
    guard let cutShort, !indexCutNoted, needs(cutShort.timestamp) else { return }
    indexCutNoted = true
    try cut(
      at: cutShort.timestamp,
      reason: "it holds \(cutShort.framesInFile) of the \(cutShort.framesListed) frames its "
        + "index lists")
  }

  /// The end of the file is reached: what FFmpeg said last is checked, and an index that lists
  /// more.
  private func ended() throws(VideoError) {
    try checkLines()
    try checkIndex()
  }

  /// Notes that the stream ends at `timestamp` (nil: unknown), and why; throws from
  /// ``VideoFailOn/truncated`` on.
  private func cut(at timestamp: Int64?, reason: String) throws(VideoError) {
    let at = timestamp ?? readEnd ?? lastFrame ?? startTime
    guard needs(at) else { return }
    cutAt = min(cutAt ?? at, at)
    // Decoding again on one thread looks for damage only.
    guard level >= .truncated, !oneThread else { return }
    throw VideoError("\(path): cut short at \(VideoTranscoder.secondsText(seconds(at))): \(reason)")
  }

  // MARK: Decoding

  /// The decoder drops what it holds (before decoding from a new position).
  func flushed() { pending = [] }

  /// The decoder is sent `packet` (nil: the end): its time is pending until its frame comes.
  func sent(_ packet: UnsafeMutablePointer<AVPacket>?) {
    guard let packet else { return }
    let time = packet.pointee.pts != fd_no_pts() ? packet.pointee.pts : packet.pointee.dts
    guard time != fd_no_pts() else { return }
    if pending.count >= 512 { pending.removeFirst(pending.count - 511) }
    pending.append(time)
    lastSent = time
    lastSentDecoded = packet.pointee.dts != fd_no_pts() ? packet.pointee.dts : time
  }

  /// The decoder gives `frame`: checked for the marks of damage, and for what FFmpeg said.
  ///
  /// - Throws: ``VideoError`` naming the file and the time from ``VideoFailOn/error`` on when the
  ///   frame is marked corrupt or concealed; what ``checkLines()`` throws.
  func received(_ frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) {
    let best = frame.pointee.best_effort_timestamp
    let time = best != fd_no_pts() ? best : frame.pointee.pts
    if time != fd_no_pts() {
      if !pending.isEmpty { pending.removeAll { $0 <= time } }
      lastFrame = time
      if recent.count == Self.threadsAhead { recent.removeFirst() }
      recent.append(time)
    }
    if frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || frame.pointee.decode_error_flags != 0 {
      let at = time != fd_no_pts() ? time : (lastFrame ?? startTime)
      if needs(at) {
        flagged += 1
        try damaged(
          at: Notice(from: at, through: lastSentDecoded ?? at), refused: level >= .error,
          reason: "a frame decodes corrupt")
      }
    }
    try checkLines()
  }

  /// The most frames FFmpeg's decoder threads can be ahead of the frames received (its automatic
  /// thread count stops at 16).
  private static let threadsAhead = 17

  /// The decoder refuses a packet or a frame with FFmpeg's error `code`: one frame lost.
  ///
  /// - Throws: ``VideoError`` naming the file and the time from ``VideoFailOn/error`` on.
  func refused(_ code: Int32) throws(VideoError) {
    let at = noticed
    guard needs(at.from) else { return }
    refusedPackets += 1
    try checkLines()
    try damaged(
      at: at, refused: level >= .error,
      reason: "the decoder refuses its data: \(VideoError.reason(code))")
  }

  /// Checks what FFmpeg said since the last check: a demuxer's error is a stream that ends early;
  /// a decoder's error or concealment damage; a warning, damage at ``VideoFailOn/warning``.
  ///
  /// - Throws: ``VideoError`` naming the file, the time and FFmpeg's first line when the level
  ///   refuses what it said.
  func checkLines() throws(VideoError) {
    let count = lines.count
    guard count != linesSeen else { return }
    linesSeen = count
    if let first = lines.tally(.demuxerError).first {
      try cut(at: nil, reason: first)
    }
    let at = noticed
    guard needs(at.from) else { return }
    let errors = lines.tally(.decoderError).count + lines.tally(.concealed).count
    if errors > 0 {
      try damaged(at: at, refused: level >= .error, reason: nil)
    } else if lines.tally(.warning).count > 0 {
      try damaged(at: at, refused: level >= .warning, reason: nil)
    }
  }

  /// Notes damage noticed `at`; when `refused`, throws the message, with where it lies
  /// (``located(_:)``): FFmpeg's first line (else `reason`) and how many more it said.
  private func damaged(at notice: Notice, refused: Bool, reason: String?) throws(VideoError) {
    if firstNoticed.map({ notice.from < $0.from }) ?? true { firstNoticed = notice }
    guard refused else { return }
    let count = lines.count
    let timestamp = located(notice) ?? notice.from
    var text = "\(path): damaged at \(VideoTranscoder.secondsText(seconds(timestamp))): "
    if let first = Self.firstKinds.lazy.compactMap({ self.lines.tally($0).first }).first {
      text += first + (count > 1 ? " (and \(count - 1) more)" : "")
    } else {
      text += reason ?? "the decoder reports damage"
    }
    throw VideoError(text)
  }

  /// The frames that may hold damage noticed now: on one thread, the packet last sent; on FFmpeg's
  /// threads, from the frames received while they decoded to the last packet sent.
  private var noticed: Notice {
    let fallback = lastFrame ?? readEnd ?? startTime
    if oneThread, let lastSent {
      return Notice(from: lastSent, through: lastSentDecoded ?? lastSent)
    }
    let from = min(recent.first ?? fallback, pending.min() ?? fallback)
    return Notice(from: from, through: lastSentDecoded ?? from)
  }

  /// Where damage noticed `at` lies: the timestamp of the first damage met when the file is decoded
  /// again, on one thread, from the key frame before the notice's first frame through its last
  /// packet; nil when that meets none (or this watch is on one thread already).
  private func located(_ notice: Notice) -> Int64? {
    guard !oneThread else { return notice.from }
    let again = DamageWatch(
      level: max(level, .error), path: path, pixelLimit: pixelLimit, oneThread: true)
    // The calling thread's lines are the new watch's meanwhile.
    let previous = again.lines.attach()
    defer { DecoderLines.reattach(previous) }
    guard let input = try? InputFile(path: path, pixelLimit: pixelLimit),
      let decoder = try? VideoDecoder(
        stream: input.videoStream, path: path, pixelLimit: pixelLimit, watch: again, threads: 1),
      let buffers = try? DecodeBuffers(for: "a frame")
    else { return nil }
    defer { buffers.free() }
    again.adopt(input)
    again.opened()
    again.until = until
    if notice.from > startTime { try? input.seekVideo(before: notice.from) }
    do {
      while try again.read(input, into: buffers.packet) {
        guard Int(buffers.packet.pointee.stream_index) == videoIndex else { continue }
        let packet = buffers.packet.pointee
        if (packet.dts != fd_no_pts() ? packet.dts : packet.pts) > notice.through { break }
        try decoder.send(buffers.packet)
        while try decoder.receive(into: buffers.frame) { av_frame_unref(buffers.frame) }
      }
    } catch {}
    return again.firstNoticed?.from
  }

  /// True when the frame at `timestamp` is needed (before ``until``).
  private func needs(_ timestamp: Int64) -> Bool {
    until.map { timestamp < $0 } ?? true
  }

  /// `timestamp` as seconds from the stream's first timestamp (0 at least).
  private func seconds(_ timestamp: Int64) -> Double {
    max(0, Double(timestamp - startTime) * av_q2d(timeBase))
  }
}

extension VideoFailOn: Comparable {
  /// Stricter levels are greater.
  public static func < (lhs: VideoFailOn, rhs: VideoFailOn) -> Bool { lhs.rank < rhs.rank }

  private var rank: Int {
    switch self {
    case .none: return 0
    case .truncated: return 1
    case .error: return 2
    case .warning: return 3
    }
  }
}
