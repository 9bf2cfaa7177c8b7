import Foundation
import Testing

@testable import Studio

/// The check of a page's incoming WebSocket bytes, fed as they might arrive: whole messages pass
/// unchanged, a message is refused at the header that makes it too large, and pings are bounded.
@Suite struct WebSocketFrameGuardTests {
  /// A masked client frame.
  func frame(opcode: UInt8, fin: Bool = true, payload: Int) -> [UInt8] {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    if payload < 126 {
      bytes.append(0x80 | UInt8(payload))
    } else if payload <= 0xFFFF {
      bytes += [0x80 | 126, UInt8(payload >> 8), UInt8(payload & 0xFF)]
    } else {
      bytes.append(0x80 | 127)
      bytes += (0..<8).reversed().map { UInt8((UInt64(payload) >> UInt64($0 * 8)) & 0xFF) }
    }
    return bytes + [1, 2, 3, 4] + (0..<payload).map { UInt8($0 & 0x7F) }
  }

  /// Feeds `bytes` in pieces of `piece`; returns what passed.
  func feed(
    _ bytes: [UInt8], into guarding: inout WebSocketFrameGuard, piece: Int,
    now: ContinuousClock.Instant = .now
  ) -> [UInt8] {
    var passed: [UInt8] = []
    var at = 0
    while at < bytes.count {
      let end = min(bytes.count, at + piece)
      var output = [UInt8](repeating: 0, count: end - at + 14)
      let written = bytes[at..<end].withUnsafeBytes { input in
        output.withUnsafeMutableBytes { guarding.take(input, into: $0, now: now) }
      }
      passed += output[0..<written]
      at = end
    }
    return passed
  }

  @Test(arguments: [1, 3, 7, 4096]) func messagesUnderTheLimitPassUnchanged(piece: Int) {
    var guarding = WebSocketFrameGuard(messageLimit: 1000, controlFramesPerSecond: 4)
    let bytes =
      frame(opcode: 1, payload: 10) + frame(opcode: 1, fin: false, payload: 300)
      + frame(opcode: 9, payload: 5) + frame(opcode: 0, payload: 600)
      + frame(opcode: 2, payload: 1000)
    #expect(feed(bytes, into: &guarding, piece: piece) == bytes)
    #expect(guarding.refusal == nil)
  }

  @Test(arguments: [1, 5, 4096]) func fragmentsAreCountedTogetherAndOnlyCloseFramesPassAfter(
    piece: Int
  ) {
    var guarding = WebSocketFrameGuard(messageLimit: 1000, controlFramesPerSecond: 4)
    let allowed = frame(opcode: 1, fin: false, payload: 600)
    let close = frame(opcode: 8, payload: 2)
    let bytes =
      allowed + frame(opcode: 0, fin: false, payload: 600) + frame(opcode: 0, payload: 70_000)
      + frame(opcode: 1, payload: 3) + close
    #expect(feed(bytes, into: &guarding, piece: piece) == allowed + close)
    guard case .tooBig(let reason)? = guarding.refusal else {
      Issue.record("no refusal: \(String(describing: guarding.refusal))")
      return
    }
    #expect(reason.contains("1200 bytes"), "\(reason)")
  }

  @Test func aFrameThatClaimsTooMuchIsRefusedAtItsHeader() {
    var guarding = WebSocketFrameGuard(messageLimit: 1000, controlFramesPerSecond: 4)
    // Only the header: nothing of the claimed gigabyte has come.
    let header: [UInt8] = [0x81, 0x80 | 127, 0, 0, 0, 0, 0x40, 0, 0, 0, 1, 2, 3, 4]
    #expect(feed(header, into: &guarding, piece: 4096).isEmpty)
    #expect(guarding.refusal != nil)
  }

  @Test func moreControlFramesThanTheLimitInASecondAreRefused() {
    var guarding = WebSocketFrameGuard(messageLimit: 1000, controlFramesPerSecond: 4)
    let start = ContinuousClock.now
    let ping = frame(opcode: 9, payload: 125)
    let four = (0..<4).flatMap { _ in ping }
    #expect(feed(four, into: &guarding, piece: 4096, now: start) == four)
    // A second later the count starts again.
    #expect(feed(four, into: &guarding, piece: 4096, now: start + .seconds(1.5)) == four)
    #expect(guarding.refusal == nil)
    #expect(feed(ping, into: &guarding, piece: 4096, now: start + .seconds(1.6)).isEmpty)
    guard case .tooManyControlFrames? = guarding.refusal else {
      Issue.record("no refusal")
      return
    }
  }
}
