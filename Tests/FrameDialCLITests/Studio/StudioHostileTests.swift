import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial studio` against a hostile page or peer on this machine: connections it opens and drops,
/// requests it never finishes, and what it sends but never reads cost the server a bounded amount and
/// never stop it answering.
@Suite(.serialized) struct StudioHostileTests {
  @Test func keepAliveConnectionsTheClientClosesAreClosedByTheServerToo() throws {
    let studio = try StudioClient()
    #expect(try studio.request("GET", "/state").status == 200)
    let before = StudioPeer.openDescriptors(of: studio.process.pid)
    // As a foreign page's fetches: keep-alive requests, half of them refused (403), then dropped.
    for index in 0..<120 {
      let socket = try studio.connect()
      defer { close(socket) }
      let refused = index.isMultiple(of: 2)
      let host = refused ? "rebound.example:\(studio.port)" : "127.0.0.1:\(studio.port)"
      let status = try StudioPeer.keepAliveRequest("/state", on: socket, host: host)
      #expect(status == (refused ? 403 : 200))
    }
    let settled = StudioPeer.eventually {
      StudioPeer.openDescriptors(of: studio.process.pid) <= before + 4
    }
    #expect(
      settled,
      "descriptors: \(before) before, \(StudioPeer.openDescriptors(of: studio.process.pid)) after")
    #expect(try studio.request("GET", "/state").status == 200)
  }

  @Test func aStudioOnEveryInterfaceAsksForItsTokenOnEveryRoute() throws {
    let studio = try StudioClient(["--listen", "0.0.0.0"])
    let token = try #require(studio.token)
    #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "URL \(studio.url)")
    #expect(studio.url.hasSuffix(":\(studio.port)/?token=\(token)"))
    // Without it, or with another, every route is refused and nothing changes.
    for path in ["/", "/state", "/frame.jpg", "/look.cube", "/timeline.jsonl", "/studio.json"] {
      let refused = try studio.request("GET", path)
      #expect(refused.status == 403, "\(path)")
      #expect(refused.text.contains("token"), "\(path): \(refused.text)")
    }
    #expect(
      try studio.request("GET", "/state?token=0123456789abcdef0123456789abcdef").status == 403)
    let post = try studio.request("POST", "/state", body: Data(#"{"exposureBias": 1}"#.utf8))
    #expect(post.status == 403)
    #expect(
      throws: StudioPeer.Failure.self, "a WebSocket without the token",
      performing: { close(try StudioPeer.openLive(studio)) })
    // The printed URL opens the page and hands it the token as a cookie, which then does for the rest.
    let page = try studio.request("GET", "/?token=\(token)")
    #expect(page.status == 200)
    let cookie = try #require(page.headers["set-cookie"])
    #expect(cookie.hasPrefix("framedial-token=\(token);"))
    #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
    let withCookie = ["Cookie": "other=1; framedial-token=\(token)"]
    let state = try studio.request("GET", "/state", headers: withCookie)
    #expect(state.status == 200)
    #expect(
      try studio.request(
        "POST", "/state", body: Data(#"{"exposureBias": 1}"#.utf8), headers: withCookie
      ).status == 200)
    #expect(try studio.request("GET", "/state?token=\(token)").text.contains("\"exposureBias\":1"))
    close(try StudioPeer.openLive(studio, headers: withCookie))
    close(try StudioPeer.openLive(studio, path: "/live?token=\(token)"))
  }

  @Test func noTokenOpensTheStudioToEveryoneWithAWarning() throws {
    let studio = try StudioClient(["--listen", "0.0.0.0", "--no-token"])
    #expect(studio.token == nil)
    #expect(try studio.request("GET", "/state").status == 200)
    #expect(
      StudioPeer.eventually(seconds: 5) {
        studio.standardError.contains(
          "framedial studio: warning: listening on 0.0.0.0 with no token (--no-token)")
      }, "standard error: \(studio.standardError)")
  }

  @Test func otherSitesPagesCannotLoadTheCaptureTheLookOrTheFrame() throws {
    let studio = try StudioClient()
    let own = "http://127.0.0.1:\(studio.port)"
    for path in ["/capture.jpg", "/look.cube", "/frame.jpg", "/state", "/timeline.jsonl"] {
      for site in ["cross-site", "same-site"] {
        let refused = try studio.request("GET", path, headers: ["Sec-Fetch-Site": site])
        #expect(refused.status == 403, "\(path) from \(site)")
        #expect(refused.text.contains("Sec-Fetch-Site: \(site)"), "\(refused.text)")
      }
      let foreign = try studio.request("GET", path, headers: ["Origin": "http://evil.example"])
      #expect(foreign.status == 403, "\(path) with a foreign Origin")
    }
    // The page itself, the user typing the URL, and scripts are answered.
    #expect(
      try studio.request("GET", "/look.cube", headers: ["Sec-Fetch-Site": "same-origin"]).status
        == 200)
    #expect(
      try studio.request("GET", "/look.cube", headers: ["Sec-Fetch-Site": "none"]).status == 200)
    #expect(try studio.request("GET", "/look.cube", headers: ["Origin": own]).status == 200)
    #expect(try studio.request("GET", "/look.cube").status == 200)
    // A link from elsewhere still opens the page.
    #expect(try studio.request("GET", "/", headers: ["Sec-Fetch-Site": "cross-site"]).status == 200)
  }

  @Test func aPageThatNeverReadsIsSentNoMoreThanItsSocketHoldsAndIsDropped() throws {
    let studio = try StudioClient()
    #expect(try studio.request("GET", "/state").status == 200)
    let sockets = StudioPeer.openSockets(of: studio.process.pid)
    let socket = try StudioPeer.openLive(studio, receiveBuffer: 4096)
    defer { close(socket) }
    // Raw frames at the viewfinder's size, a new one for every change, each "decoded" at once: but
    // nothing is ever read.
    let start = Date()
    let view = #"{"type":"view","width":1206,"height":2622,"format":"rgba"}"#
    #expect(
      StudioPeer.writeUnlessRefused(
        StudioPeer.frame(opcode: 1, payload: Data(view.utf8)), to: socket))
    // Once the first frames of that size are made (the memory to make them counts as the start).
    for exposure in ["0.5", "0"] {
      let change = #"{"type":"state","state":{"exposureBias":\#(exposure)}}"#
      _ = StudioPeer.writeUnlessRefused(
        StudioPeer.frame(opcode: 1, payload: Data(change.utf8)), to: socket, seconds: 2)
      usleep(1_000_000)
    }
    let before = StudioPeer.residentBytes(of: studio.process.pid)
    var peak = before
    for index in 0..<400 {
      let change =
        #"{"type":"state","state":{"exposureBias":"# + (index.isMultiple(of: 2) ? "1" : "0") + "}}"
      let burst =
        StudioPeer.frame(opcode: 1, payload: Data(change.utf8))
        + StudioPeer.frame(opcode: 1, payload: Data(#"{"type":"decoded"}"#.utf8))
      guard StudioPeer.writeUnlessRefused(burst, to: socket, seconds: 2) else { break }
      peak = max(peak, StudioPeer.residentBytes(of: studio.process.pid))
      usleep(20_000)
    }
    peak = max(peak, StudioPeer.residentBytes(of: studio.process.pid))
    // At most what its socket holds and a frame or two: not a queue of every frame.
    #expect(peak - before < 60_000_000, "resident \(before) → \(peak) bytes")
    #expect(try studio.request("GET", "/state").status == 200)
    // Behind for longer than the server waits: dropped, its descriptor closed (what the socket held
    // still waits for a read that never comes).
    let dropped = StudioPeer.eventually(seconds: 25 - Date().timeIntervalSince(start)) {
      StudioPeer.openSockets(of: studio.process.pid) <= sockets
    }
    #expect(
      dropped,
      "\(sockets) sockets before, \(StudioPeer.openSockets(of: studio.process.pid)) now"
    )
  }

  @Test func aMessageSentInFragmentsIsCappedAsItArrives() throws {
    let studio = try StudioClient()
    let socket = try StudioPeer.openLive(studio)
    defer { close(socket) }
    let before = StudioPeer.residentBytes(of: studio.process.pid)
    // 64 MiB of fragments of one text message that never ends, each frame well under the limit.
    let chunk = Data(repeating: UInt8(ascii: " "), count: 32 * 1024)
    _ = StudioPeer.writeUnlessRefused(
      StudioPeer.frame(opcode: 1, fin: false, payload: chunk), to: socket)
    let fragment = StudioPeer.frame(opcode: 0, fin: false, payload: chunk)
    var peak = before
    for index in 0..<2047 {
      guard StudioPeer.writeUnlessRefused(fragment, to: socket, seconds: 2) else { break }
      if index.isMultiple(of: 64) {
        peak = max(peak, StudioPeer.residentBytes(of: studio.process.pid))
      }
    }
    peak = max(peak, StudioPeer.residentBytes(of: studio.process.pid))
    #expect(peak - before < 32_000_000, "resident \(before) → \(peak) bytes")
    let frames = StudioPeer.serverFrames(StudioPeer.readUntilClosed(socket, seconds: 10).data)
    let closing = try #require(StudioPeer.closeFrame(in: frames), "no close frame")
    #expect(closing.code == 1009)
    #expect(closing.reason.contains("at most 64 KiB"), "\(closing.reason)")
    #expect(try studio.request("GET", "/state").status == 200)
  }

  @Test func aFloodOfPingsIsRefusedAndTheServerGoesOn() throws {
    let studio = try StudioClient()
    let socket = try StudioPeer.openLive(studio, receiveBuffer: 4096)
    defer { close(socket) }
    let before = StudioPeer.residentBytes(of: studio.process.pid)
    let ping = StudioPeer.frame(opcode: 9, payload: Data(repeating: 0x2A, count: 125))
    // 100 000 pings (13 MB), none of their answers read.
    for _ in 0..<100 {
      let burst = Data((0..<1000).flatMap { _ in ping })
      guard StudioPeer.writeUnlessRefused(burst, to: socket, seconds: 2) else { break }
    }
    #expect(
      StudioPeer.residentBytes(of: studio.process.pid) - before < 32_000_000,
      "resident \(before) → \(StudioPeer.residentBytes(of: studio.process.pid)) bytes")
    // The server answers others at once, and the flooding client was told why it is closed.
    let answer = try studio.request("GET", "/state")
    #expect(answer.status == 200)
    // The server closes while the client still sends, which resets the connection: the reset may
    // take the error message and the close frame with it, unread. Whatever verdict does arrive is
    // the right one.
    let ending = StudioPeer.readUntilClosed(socket, seconds: 10)
    #expect(ending.closed)
    // The page was sent its state on opening; only error messages and the close frame are verdicts.
    let frames = StudioPeer.serverFrames(ending.data)
    let errors = frames.filter { $0.opcode == 1 }.compactMap { frame -> String? in
      let object = try? JSONSerialization.jsonObject(with: frame.payload) as? [String: Any]
      guard object?["type"] as? String == "error" else { return nil }
      return object?["message"] as? String
    }
    for message in errors {
      #expect(message.contains("at most 64 pings a second"), "\(message)")
    }
    if let closing = StudioPeer.closeFrame(in: frames) {
      #expect(closing.code == 1008, "\(closing.code) \(closing.reason)")
    }
  }

  @Test(arguments: ["/state", "/live"]) func deeplyNestedJSONIsRefusedBeforeItIsDecoded(
    route: String
  ) throws {
    let studio = try StudioClient()
    let nested = String(repeating: "[", count: 254) + String(repeating: "]", count: 254)
    if route == "/state" {
      let response = try studio.request(
        "POST", "/state", body: Data(#"{"exposureBias": \#(nested)}"#.utf8))
      #expect(response.status == 400)
      #expect(response.text.contains("more than 16 levels deep"), "\(response.text)")
    } else {
      let live = try studio.live()
      try live.send(#"{"type":"state","seq":1,"state":{"exposureBias":\#(nested)}}"#)
      let error = try live.receiveJSON(timeout: 10) { $0["type"] == .string("error") }
      #expect(
        error["message"]?.string?.contains("more than 16 levels deep") == true, "\(error)")
    }
    // A state nested as deep as any real one is taken.
    let state = try studio.request("POST", "/state", body: Data(#"{"exposureBias": 1}"#.utf8))
    #expect(state.status == 200)
  }

  @Test func idleAndTricklingConnectionsAreClosed() throws {
    let studio = try StudioClient()
    let idle = try studio.connect()
    defer { close(idle) }
    let trickling = try studio.connect()
    defer { close(trickling) }
    try StudioClient.write(Data("GET /state HTTP/1.1\r\n".utf8), to: trickling)
    var timeout = timeval(tv_sec: 1, tv_usec: 0)
    for socket in [idle, trickling] {
      setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
    var closed = (idle: false, trickling: false)
    var byte: UInt8 = 0
    // One header byte a second, for at most 25 s; the server closes both well before.
    for _ in 0..<25 where !(closed.idle && closed.trickling) {
      if !closed.trickling {
        _ = send(trickling, "X", 1, Int32(MSG_NOSIGNAL))
        closed.trickling = recv(trickling, &byte, 1, 0) == 0
      }
      if !closed.idle { closed.idle = recv(idle, &byte, 1, 0) == 0 }
    }
    #expect(closed.idle)
    #expect(closed.trickling)
    #expect(try studio.request("GET", "/state").status == 200)
  }

  @Test func startedWithSIGINTIgnoredAsAScriptsBackgroundJobItStillStopsOnSIGINT() throws {
    let errors = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-studio-\(UUID().uuidString).err")
    defer { try? FileManager.default.removeItem(at: errors) }
    let ends = try ShellStartedProcess.pipe()
    let process = try ShellStartedProcess(
      ["studio", "--port", "0"], output: ends.write, errors: errors.path, ignoringInterrupt: true)
    close(ends.write)
    defer { close(ends.read) }
    var line = [UInt8]()
    var byte: UInt8 = 0
    while read(ends.read, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
    #expect(String(decoding: line, as: UTF8.self).hasPrefix("http://127.0.0.1:"))
    process.send(SIGINT)
    let ending = process.wait(within: 10)
    if ending == nil {
      process.send(SIGKILL)
      _ = process.wait()
    }
    #expect(ending == .exited(0))
    #expect(
      ((try? String(contentsOf: errors, encoding: .utf8)) ?? "").contains("stopped by SIGINT"))
  }

  @Test func aVideoNobodyWatchesPausesAndPlaysOnWhenAPageOpens() throws {
    let root = try CLIRunner.scratchFolder("studio-video-idle")
    defer { try? FileManager.default.removeItem(at: root) }
    let clip = root.appendingPathComponent("moving.mp4")
    try VideoClips.make(
      clip,
      [
        "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=4", "-pix_fmt", "yuv420p",
        "-c:v", "libx264",
      ])
    let studio = try StudioClient([clip.path])
    // Past the grace after the start, with no page open: a few seconds cost next to no CPU.
    sleep(3)
    let ticks = StudioPeer.cpuTicks(of: studio.process.pid)
    sleep(3)
    let used = StudioPeer.cpuTicks(of: studio.process.pid) - ticks
    let perSecond = Int(sysconf(Int32(_SC_CLK_TCK)))
    #expect(used * 10 < perSecond * 3, "\(used) ticks in 3 s (\(perSecond) a second)")
    // A page opens: frames come, and new ones follow.
    let live = try studio.live()
    var frames: [Data] = []
    let deadline = Date(timeIntervalSinceNow: 20)
    while frames.count < 3, Date() < deadline {
      guard let message = try live.receive(timeout: 10) else { break }
      if case .binary(let data) = message {
        if frames.last != data { frames.append(data) }
        try live.send(#"{"type":"decoded"}"#)
      }
    }
    #expect(frames.count == 3)
  }
}
