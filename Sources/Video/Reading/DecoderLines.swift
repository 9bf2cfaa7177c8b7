import CFFmpeg
import Foundation

/// What FFmpeg's decoder and demuxer say while one video file is opened and decoded: their log lines
/// are taken here instead of printed (see ``FFmpegLog``), counted by kind with the first of each
/// kept, so that the damage they report becomes the file's one message (``DamageWatch``).
///
/// A line is the file's when it comes from its decoder (whose `opaque` is this object, so the
/// decoder's own threads are recognised) or from a decoder or demuxer working on the thread that reads
/// the file (``attach()``): FFmpeg's parsers and its first look at the file log from there.
final class DecoderLines: @unchecked Sendable {
  // `@unchecked Sendable`: every stored property is guarded by `lock` (FFmpeg's decoder threads log
  // while the reading thread checks).

  /// What a line says about the file.
  enum Kind: CaseIterable {
    /// The demuxer cannot read on (a file that ends in the middle of its data).
    case demuxerError
    /// The decoder meets an error.
    case decoderError
    /// The decoder conceals damage (FFmpeg's error resilience says so at its INFO level only).
    case concealed
    /// The decoder or demuxer warns.
    case warning
  }

  private let lock = NSLock()
  private var counts: [Kind: Int] = [:]
  private var firsts: [Kind: String] = [:]
  private var taken = 0
  private var opening = true
  private var heldLines: [String] = []
  private var heldCount = 0

  /// The value a decoder's `opaque` holds so that its threads' lines are recognised as this file's.
  var key: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// Lines taken from now on, until ``close()``.
  init() {
    LineRegistry.register(self)
  }

  /// Takes no more lines (the registry holds them until then).
  func close() {
    LineRegistry.unregister(self)
  }

  /// Ends the opening. Until then (FFmpeg's first look at the file, which decodes frames that are
  /// decoded again later) the decoder's lines are dropped and the demuxer's errors held: they say
  /// why a file cannot be opened (``held``), and are dropped when it opens.
  func opened() {
    lock.withLock {
      opening = false
      (heldLines, heldCount) = ([], 0)
    }
  }

  /// The demuxer's first error while the file was being opened ("FFmpeg (mov,mp4,m4a,3gp,3g2,mj2):
  /// moov atom not found") and how many it said in all, or nil when it said none.
  var held: (first: String, count: Int)? {
    lock.withLock { heldLines.first.map { ($0, heldCount) } }
  }

  /// Takes the lines of decoders and demuxers working on the calling thread until ``detach()``;
  /// returns the lines that took them before, if any (for ``DecoderLines/reattach(_:)``).
  @discardableResult
  func attach() -> DecoderLines? { LineRegistry.attach(self) }

  /// Gives the calling thread's lines back to `previous` (nil: to none), as before an ``attach()``.
  static func reattach(_ previous: DecoderLines?) { LineRegistry.reattach(previous) }

  /// Stops taking the calling thread's lines.
  func detach() { LineRegistry.detach(self) }

  /// How many lines have been taken so far (of any kind).
  var count: Int { lock.withLock { taken } }

  /// How many lines of `kind` have been taken, and the first of them.
  func tally(_ kind: Kind) -> (count: Int, first: String?) {
    lock.withLock { (counts[kind] ?? 0, firsts[kind]) }
  }

  /// Forgets every line taken (a new pass over the file).
  func reset() {
    lock.withLock {
      counts = [:]
      firsts = [:]
      taken = 0
    }
  }

  /// Takes a line at FFmpeg's `level` from `component` (FFmpeg's name for it), from the decoder or
  /// the demuxer; false leaves it to be printed (or not) as any other line.
  fileprivate func take(level: Int32, fromDecoder: Bool, component: String?, message: String)
    -> Bool
  {
    let kind: Kind
    if level <= AV_LOG_ERROR {
      kind = fromDecoder ? .decoderError : .demuxerError
    } else if level <= AV_LOG_WARNING {
      kind = .warning
    } else if fromDecoder, message.hasPrefix("concealing ") {
      kind = .concealed
    } else {
      return false
    }
    let named = component.map { $0.isEmpty || $0 == "NULL" ? "FFmpeg" : "FFmpeg (\($0))" }
    return lock.withLock {
      if opening {
        guard !fromDecoder else { return true }
        guard level <= AV_LOG_ERROR else { return false }
        if heldLines.isEmpty { heldLines.append("\(named ?? "FFmpeg"): \(message)") }
        heldCount += 1
        return true
      }
      counts[kind, default: 0] += 1
      if firsts[kind] == nil { firsts[kind] = "\(named ?? "FFmpeg"): \(message)" }
      taken += 1
      return true
    }
  }

  /// The taker ``FFmpegLog`` installs: the line goes to the ``DecoderLines`` it belongs to, if any.
  static let taker: fd_log_taker = { context, level, component, message in
    guard let context, let message,
      let (lines, fromDecoder) = LineRegistry.lines(for: context)
    else { return 0 }
    let taken = lines.take(
      level: level, fromDecoder: fromDecoder,
      component: parserName(context) ?? component.map { String(cString: $0) },
      message: String(cString: message))
    return taken ? 1 : 0
  }

  /// "h264 parser" for the codec context of the demuxer's parser (one without a codec, which FFmpeg
  /// names "NULL"), nil for any other context.
  private static func parserName(_ context: UnsafeMutableRawPointer) -> String? {
    guard context.load(as: UnsafePointer<AVClass>?.self) == avcodec_get_class() else { return nil }
    let codecContext = context.assumingMemoryBound(to: AVCodecContext.self).pointee
    guard codecContext.codec == nil, let name = avcodec_get_name(codecContext.codec_id) else {
      return nil
    }
    return "\(String(cString: name)) parser"
  }
}

/// The ``DecoderLines`` alive, by the key their decoders carry and by the thread reading their file.
private enum LineRegistry {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var byKey: [UnsafeMutableRawPointer: DecoderLines] = [:]
  nonisolated(unsafe) private static var byThread: [pthread_t: DecoderLines] = [:]

  static func register(_ lines: DecoderLines) {
    let key = lines.key
    lock.withLock { byKey[key] = lines }
  }

  static func unregister(_ lines: DecoderLines) {
    let key = lines.key
    lock.withLock {
      byKey[key] = nil
      byThread = byThread.filter { $0.value !== lines }
    }
  }

  static func attach(_ lines: DecoderLines) -> DecoderLines? {
    let thread = pthread_self()
    return lock.withLock {
      defer { byThread[thread] = lines }
      return byThread[thread]
    }
  }

  static func reattach(_ previous: DecoderLines?) {
    let thread = pthread_self()
    lock.withLock { byThread[thread] = previous }
  }

  static func detach(_ lines: DecoderLines) {
    let thread = pthread_self()
    lock.withLock {
      if byThread[thread] === lines { byThread[thread] = nil }
    }
  }

  /// The lines `context` (the object FFmpeg logs for) belongs to, and whether it is a decoder (or a
  /// parser's codec context): a decoder whose `opaque` is a registered key, or a decoder or an input
  /// demuxer on a thread attached to one. Encoders, muxers, scalers and filters belong to none.
  static func lines(for context: UnsafeMutableRawPointer) -> (DecoderLines, Bool)? {
    let kind = context.load(as: UnsafePointer<AVClass>?.self)
    guard let kind else { return nil }
    if kind == avcodec_get_class() {
      let codecContext = context.assumingMemoryBound(to: AVCodecContext.self).pointee
      if let codec = codecContext.codec, av_codec_is_decoder(codec) == 0 { return nil }
      let thread = pthread_self()
      return lock.withLock {
        if let key = codecContext.opaque, let lines = byKey[key] { return (lines, true) }
        return byThread[thread].map { ($0, true) }
      }
    }
    guard kind == avformat_get_class(),
      context.assumingMemoryBound(to: AVFormatContext.self).pointee.iformat != nil
    else { return nil }
    let thread = pthread_self()
    return lock.withLock { byThread[thread].map { ($0, false) } }
  }
}
