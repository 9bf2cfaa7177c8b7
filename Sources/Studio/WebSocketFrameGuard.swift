/// Reads the bytes a page sends on `/live` as they arrive, before libsoup takes them, frame by frame: a
/// message is refused as soon as a frame's header would make it larger than the limit (its fragments
/// counted together, where libsoup 3.2 caps each frame only and holds every fragment until the last),
/// and a flood of control frames (pings, whose answers pile up for a client that never reads them) is
/// refused too. From a refusal on, only close frames pass on to libsoup (so the page's answer to the
/// server's close still ends the connection at once); the rest is dropped unread.
struct WebSocketFrameGuard {
  /// Why the page's bytes are refused: the close code and the reason sent with it.
  enum Refusal: Equatable {
    /// A message larger than the limit (1009).
    case tooBig(String)
    /// More control frames than the limit within a second (1008).
    case tooManyControlFrames(String)
  }

  /// The largest message taken, in bytes (payloads of all its fragments).
  let messageLimit: Int
  /// The most control frames taken within one second.
  let controlFramesPerSecond: Int

  private var header: [UInt8] = []
  private var headerLength = 2
  private var payloadLeft: UInt64 = 0
  /// The frame being read passes on to libsoup.
  private var passing = true
  private var messageBytes: UInt64 = 0
  private var window: (start: ContinuousClock.Instant, count: Int)?
  /// The first refusal, once there is one.
  private(set) var refusal: Refusal?

  /// A guard with the limits.
  init(messageLimit: Int, controlFramesPerSecond: Int) {
    self.messageLimit = messageLimit
    self.controlFramesPerSecond = controlFramesPerSecond
  }

  /// Takes the next bytes from the page, writing the ones that pass to `output` (room for
  /// `input.count` + 14 bytes: a frame header held back from earlier calls goes out with its frame);
  /// returns how many were written. A refusal, the first time there is one, is in ``refusal``.
  mutating func take(
    _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
    now: ContinuousClock.Instant = .now
  ) -> Int {
    var written = 0
    var index = 0
    func emit(_ byte: UInt8) {
      output[written] = byte
      written += 1
    }
    while index < input.count {
      if payloadLeft > 0 {
        let count = Int(min(payloadLeft, UInt64(input.count - index)))
        if passing {
          for offset in 0..<count { emit(input[index + offset]) }
        }
        index += count
        payloadLeft -= UInt64(count)
        continue
      }
      header.append(input[index])
      index += 1
      if header.count == 2 {
        let length = header[1] & 0x7F
        headerLength =
          2 + (length == 126 ? 2 : length == 127 ? 8 : 0) + (header[1] & 0x80 != 0 ? 4 : 0)
      }
      guard header.count >= 2, header.count == headerLength else { continue }
      let payload = payloadLength()
      passing = decide(opcode: header[0] & 0x0F, payload: payload, now: now)
      if passing { header.forEach(emit) }
      payloadLeft = payload
      header.removeAll(keepingCapacity: true)
      headerLength = 2
    }
    return written
  }

  /// The payload length the complete header gives.
  private func payloadLength() -> UInt64 {
    let short = UInt64(header[1] & 0x7F)
    let extra = short == 126 ? 2 : short == 127 ? 8 : 0
    guard extra > 0 else { return short }
    return header[2..<(2 + extra)].reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
  }

  /// True when the frame that begins passes on; records a refusal.
  private mutating func decide(opcode: UInt8, payload: UInt64, now: ContinuousClock.Instant) -> Bool
  {
    let isClose = opcode == 0x8
    guard refusal == nil else { return isClose }
    if opcode & 0x8 != 0 {
      if let window, now - window.start < .seconds(1) {
        self.window = (window.start, window.count + 1)
      } else {
        window = (now, 1)
      }
      if let window, window.count > controlFramesPerSecond, !isClose {
        refusal = .tooManyControlFrames(
          "a /live client may send at most \(controlFramesPerSecond) pings a second")
        return false
      }
      return true
    }
    messageBytes = opcode == 0 ? messageBytes &+ payload : payload
    if messageBytes > UInt64(messageLimit) {
      refusal = .tooBig(
        "a /live message may be at most \(messageLimit / 1024) KiB, not \(messageBytes) bytes"
          + (opcode == 0 ? " (its fragments so far)" : ""))
      return false
    }
    return true
  }
}
