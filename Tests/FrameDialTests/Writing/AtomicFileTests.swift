import Foundation
import Testing

@testable import FrameDial

@Suite struct AtomicFileTests {
  @Test func temporaryNamesStayWithin255BytesAndCutBetweenCharacters() {
    for count in [1, 100, 113, 114, 127, 128, 200] {
      let name = String(repeating: "é", count: count) + ".png"
      let temporary = AtomicFile.temporaryName(
        for: name, pid: 4_194_304, host: "89abcdef", tag: "0123abcd")
      #expect(temporary.utf8.count <= 255, "\(count)")
      #expect(temporary.hasSuffix(".4194304-89abcdef.0123abcd.framedial-partial"))
      // Whole characters only: the kept part is a prefix of the name, made of "é"s.
      let kept = temporary.dropFirst().dropLast(
        ".4194304-89abcdef.0123abcd.framedial-partial".count)
      #expect(name.hasPrefix(kept))
      #expect(
        AtomicFile.writer(ofTemporary: temporary)
          == AtomicFile.Writer(pid: 4_194_304, host: "89abcdef"))
    }
    #expect(
      AtomicFile.temporaryName(for: "a.png", pid: 42, host: "89abcdef", tag: "0123abcd")
        == ".a.png.42-89abcdef.0123abcd.framedial-partial")
    #expect(AtomicFile.hostTag.count == 8 && AtomicFile.hostTag.allSatisfy(\.isHexDigit))
  }

  @Test func onlyFrameDialsOwnNamesWithAProcessIDAreRecognised() {
    #expect(
      AtomicFile.writer(ofTemporary: ".a.png.42-89abcdef.0123abcd.framedial-partial")
        == AtomicFile.Writer(pid: 42, host: "89abcdef"))
    for name in [
      // Process IDs that would make kill(2) reach a process group, every process, or init.
      ".a.png.0-89abcdef.0123abcd.framedial-partial",
      ".a.png.-1-89abcdef.0123abcd.framedial-partial",
      ".a.png.1-89abcdef.0123abcd.framedial-partial",
      ".a.png.+5-89abcdef.0123abcd.framedial-partial",
      ".a.png.99999999999-89abcdef.0123abcd.framedial-partial",
      // Not ours, without a machine, or the older namings.
      ".a.png.42.0123abcd.framedial-partial", ".a.png.42-89abcde.0123abcd.framedial-partial",
      ".a.png.0123abcd.framedial-partial", "a.png.42-89abcdef.0123abcd.framedial-partial",
      ".a.png.42-89abcdef.0123abcd.partial", ".a.png.42-89abcdef.0123abcdx.framedial-partial",
      ".a.png.٤٢-89abcdef.0123abcd.framedial-partial",
    ] {
      #expect(AtomicFile.writer(ofTemporary: name) == nil, "\(name)")
    }
  }
}
