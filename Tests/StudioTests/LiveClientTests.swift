import Foundation
import JSON
import Synchronization
import Testing

@testable import Studio

/// A backend with one control, `exposureBias`, so a real ``StudioServer`` can be driven without
/// FrameDial: state changes count generations, a full press asks for a capture, and only
/// `exposure-bias` can be chosen.
final class OneControlBackend: StudioBackend {
  private let current = Mutex((exposureBias: 0.0, generation: UInt64(0)))

  func stateJSON() -> Data {
    JSONText.object(["exposureBias": .number(current.withLock { $0.exposureBias })])
  }

  var generation: UInt64 { current.withLock { $0.generation } }

  func applyState(json: Data) -> StateChange {
    applyState(members: (try? JSONValue.read(json)) ?? .null)
  }

  func applyState(members: JSONValue) -> StateChange {
    guard let value = members["exposureBias"]?.number, members.members?.count == 1
    else { return .rejected(message: "only exposureBias (a number) is known") }
    return .applied(
      generation: current.withLock {
        if $0.exposureBias != value {
          ($0.exposureBias, $0.generation) = (value, $0.generation + 1)
        }
        return $0.generation
      })
  }

  func labels() -> [String: String] {
    ["exposure-bias": "\(current.withLock { $0.exposureBias }) EV"]
  }
  func pageConfiguration() -> Data { Data("{}".utf8) }
  func overlayJSON() -> Data { Data(#"{"visible":false,"list":false,"control":null}"#.utf8) }

  func press(phase: String, kind: String) -> PressOutcome {
    guard ["began", "ended", "cancelled"].contains(phase) else {
      return .rejected(message: "no press phase \(phase)")
    }
    return .accepted(capture: phase == "ended" && kind == "primary")
  }

  func viewfinderShown(width: Int, height: Int) {}

  /// The formats the server asked for, in order.
  let formatsAsked = Mutex<[(rgba: Bool, jpeg: Bool)]>([])
  func framesWanted(rgba: Bool, jpeg: Bool) { formatsAsked.withLock { $0.append((rgba, jpeg)) } }

  func slide(control: String, to value: Double) -> StateChange {
    .rejected(message: "no slider named \"\(control)\"")
  }

  func chooseControl(_ name: String) -> String? {
    name == "exposure-bias" ? nil : "no control named \"\(name)\""
  }

  func record(_ start: Bool?) -> RecordingStatus { RecordingStatus(recording: false, events: 0) }
  func timelineJSONLines() -> Data { Data() }
  func lookCube() -> Export { .refused(message: "no look") }
  func capture(completion: @escaping @Sendable (Export) -> Void) {
    completion(.failed(message: "no capture"))
  }
}

/// ``LiveClient`` against a real ``StudioServer`` on a free port: the handshake with an Origin, text
/// both ways, binary frames larger than libsoup's default limit, and the close codes and reasons.
@Suite struct LiveClientTests {
  /// A server on a free port with a ``OneControlBackend``; `test` gets it and its port.
  func withServer(
    backend: OneControlBackend = OneControlBackend(), _ test: (StudioServer, Int) throws -> Void
  ) throws {
    let server = StudioServer(
      configuration: .init(port: 0), backend: backend, resources: try PageResources.bundled())
    let url = try server.start()
    defer {
      server.stop()
      server.waitUntilStopped()
    }
    let port = try #require(Int(url.dropFirst("http://127.0.0.1:".count).dropLast()))
    try test(server, port)
  }

  func open(_ port: Int) throws -> LiveClient {
    try LiveClient(url: "ws://127.0.0.1:\(port)/live", origin: "http://127.0.0.1:\(port)")
  }

  @Test func theFirstMessageIsTheStateAndAnswersComeBackUntilTheClose() throws {
    try withServer { _, port in
      // An http:// URL is taken as well as ws://.
      let live = try LiveClient(
        url: "http://127.0.0.1:\(port)/live", origin: "http://127.0.0.1:\(port)")
      guard case .text(let first) = try #require(try live.receive()) else {
        Issue.record("the first message is not text")
        return
      }
      let state = try #require(
        try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
      #expect(state["type"] as? String == "state")
      #expect(state["generation"] as? Int == 0)
      try live.send(#"{"type":"state","seq":1,"state":{"exposureBias":1.5}}"#)
      let changed = try live.receiveJSON { $0["type"] == .string("state") }
      #expect(changed["state"]?["exposureBias"] == .number(1.5))
      #expect(changed["generation"] == .number(1))
      #expect(changed["labels"]?["exposure-bias"] == .string("1.5 EV"))
      try live.send(#"{"type":"press","phase":"began","kind":"primary"}"#)
      try live.send(#"{"type":"press","phase":"ended","kind":"primary"}"#)
      let capture = try live.receiveJSON { $0["type"] == .string("capture") }
      #expect(capture["url"] == .string("/capture.jpg"))
      try live.send(#"{"type":"choose","control":"iso"}"#)
      let refused = try live.receiveJSON { $0["type"] == .string("error") }
      #expect(refused["message"] == .string(#"no control named "iso""#))
      #expect(live.closed == nil)
      // Closing from this side: the server answers with the normal code.
      live.close()
      while try live.receive() != nil {}
      #expect(live.closed?.code == 1000)
      #expect(throws: StudioError.self) { try live.send(#"{"type":"shown"}"#) }
    }
  }

  @Test func aFrameLargerThanLibsoupsDefaultLimitArrivesWhole() throws {
    try withServer { server, port in
      let live = try open(port)
      // 300 KiB of a pattern: more than the 128 KiB libsoup takes by default.
      let jpeg = Data((0..<300 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 7) })
      server.publish(
        frame: StudioFrame(number: 1, width: 640, height: 480, jpeg: jpeg), generation: 0)
      let announced = try live.receiveJSON { $0["type"] == .string("frame") }
      #expect(announced["generation"] == .number(0))
      #expect(announced["format"] == .string("jpeg"))
      #expect(try live.receive() == .binary(jpeg))
    }
  }

  @Test func formatsAreAskedForAsPagesNeedThemAndAFrameHandedInAgainAddsOne() throws {
    let backend = OneControlBackend()
    func asked() -> [String] {
      backend.formatsAsked.withLock {
        $0.map { "\($0.rgba ? "rgba" : "-") \($0.jpeg ? "jpeg" : "-")" }
      }
    }
    try withServer(backend: backend) { server, port in
      let live = try open(port)
      _ = try live.receiveJSON { $0["type"] == .string("state") }
      #expect(asked() == ["- jpeg"], "a page that asked for nothing takes JPEG")
      try live.send(#"{"type":"view","width":2,"height":1,"format":"rgba"}"#)
      let rgba = Data([1, 2, 3, 255, 4, 5, 6, 255])
      server.publish(frame: StudioFrame(number: 1, width: 2, height: 1, rgba: rgba), generation: 0)
      let announced = try live.receiveJSON { $0["type"] == .string("frame") }
      #expect(announced["format"] == .string("rgba") && announced["width"] == .number(2))
      #expect(try live.receive() == .binary(rgba))
      #expect(asked() == ["- jpeg", "rgba -"])
      // The same frame handed in again with its JPEG is not sent again to the raw page: the next
      // frame it gets is frame 2.
      let jpeg = Data("not really a JPEG".utf8)
      server.publish(frame: StudioFrame(number: 1, width: 2, height: 1, jpeg: jpeg), generation: 0)
      try live.send(#"{"type":"decoded"}"#)
      let next = Data([7, 8, 9, 255, 10, 11, 12, 255])
      server.publish(frame: StudioFrame(number: 2, width: 2, height: 1, rgba: next), generation: 1)
      let second = try live.receiveJSON { $0["type"] == .string("frame") }
      #expect(second["generation"] == .number(1))
      #expect(try live.receive() == .binary(next))
    }
  }

  @Test func anOversizedMessageClosesWith1009AndAReason() throws {
    try withServer { _, port in
      let live = try open(port)
      let text =
        #"{"type":"state","state":{"exposureBias":1}"# + String(repeating: " ", count: 100 * 1024)
        + "}"
      try live.send(text)
      var errors: [String] = []
      while let message = try live.receive() {
        if case .text(let text) = message, text.contains(#""type":"error""#) { errors.append(text) }
      }
      #expect(errors.count == 1)
      let closed = try #require(live.closed)
      #expect(closed.code == 1009)
      #expect(
        closed.reason == "a /live message may be at most 64 KiB, not \(text.utf8.count) bytes")
      #expect(throws: StudioError.self) { try live.send(#"{"type":"shown"}"#) }
    }
  }

  @Test func theServerStoppingClosesWithGoingAway() throws {
    try withServer { server, port in
      let live = try open(port)
      server.stop()
      while try live.receive() != nil {}
      #expect(live.closed?.code == 1001)
    }
  }

  @Test func aForeignOriginIsRefusedWithTheStatus() throws {
    try withServer { _, port in
      do throws(StudioError) {
        _ = try LiveClient(url: "ws://127.0.0.1:\(port)/live", origin: "http://evil.example")
        Issue.record("the handshake was accepted")
      } catch {
        #expect(error.message.contains("HTTP 403"), "\(error.message)")
      }
    }
  }

  @Test func aBadURLIsNamed() {
    #expect(
      throws: StudioError("'no url' is not a WebSocket URL (for example ws://127.0.0.1:8080/live)")
    ) {
      _ = try LiveClient(url: "no url", origin: nil)
    }
  }
}
