import Foundation
import TestSupport
import Testing
import Vips

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial studio` as a script sees it: the server started on a free port, its HTTP API, its safety
/// rules, and a clean stop on Ctrl-C.
@Suite struct StudioCommandTests {
  /// The mean of every sample of a JPEG.
  func meanBrightness(_ jpeg: Data) throws -> Double {
    try Image(bytes: jpeg).average()
  }

  func json(_ response: StudioClient.Response) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
  }

  @Test func stateRoundTripsAndPartialPostsKeepTheOtherKeys() throws {
    let studio = try StudioClient()
    let initial = try json(try studio.request("GET", "/state"))
    #expect(initial["exposureBias"] as? Double == 0)
    #expect(initial["filter"] as? String == "none")
    let posted = try studio.request(
      "POST", "/state", body: Data(#"{"contrast": 1.25, "filter": "mono"}"#.utf8))
    #expect(posted.status == 200)
    #expect(posted.headers["content-type"] == "application/json")
    let second = try studio.request(
      "POST", "/state", body: Data(#"{"whiteBalance": "tungsten"}"#.utf8))
    #expect(second.status == 200)
    let state = try json(try studio.request("GET", "/state"))
    #expect(state["contrast"] as? Double == 1.25)
    #expect(state["filter"] as? String == "mono")
    #expect(state["whiteBalance"] as? String == "tungsten")
    #expect(state["exposureBias"] as? Double == 0)
  }

  @Test func frameIsBrighterAfterExposurePlusOne() throws {
    let studio = try StudioClient()
    let before = try studio.request("GET", "/frame.jpg")
    #expect(before.status == 200)
    #expect(before.headers["content-type"] == "image/jpeg")
    let posted = try studio.request("POST", "/state", body: Data(#"{"exposureBias": 1}"#.utf8))
    #expect(posted.status == 200)
    let after = try studio.request("GET", "/frame.jpg")
    #expect(after.status == 200)
    let (dark, bright) = (try meanBrightness(before.body), try meanBrightness(after.body))
    #expect(bright > dark + 10, "mean \(dark) → \(bright)")
    // The live frame fits the iPhone 16 Pro's viewfinder (1206 px wide in portrait) or the picture.
    let frame = try Image(bytes: after.body)
    #expect(frame.width <= 1206)
    #expect(frame.bands == 3)
  }

  @Test func badValueIs400WithFrameDialsMessageAndChangesNothing() throws {
    let studio = try StudioClient()
    let response = try studio.request(
      "POST", "/state", body: Data(#"{"contrast": 1.5, "exposureBias": 99}"#.utf8))
    #expect(response.status == 400)
    let message = try #require(try json(response)["error"] as? String)
    #expect(message.contains("99"))
    #expect(message.contains("out of range"))
    #expect(message.contains("-8 … 8 EV"))
    let unknown = try studio.request("POST", "/state", body: Data(#"{"exposure": 1}"#.utf8))
    #expect(unknown.status == 400)
    #expect(unknown.text.contains("Unknown control key"))
    let broken = try studio.request("POST", "/state", body: Data("{".utf8))
    #expect(broken.status == 400)
    // Nothing of a refused object is applied, and the server goes on answering.
    let state = try json(try studio.request("GET", "/state"))
    #expect(state["contrast"] as? Double == 1)
    #expect(studio.process.isRunning)
  }

  @Test func foreignOriginIs403AndTheOwnOriginIsAccepted() throws {
    let studio = try StudioClient()
    let body = Data(#"{"exposureBias": 1}"#.utf8)
    let foreign = try studio.request(
      "POST", "/state", body: body, headers: ["Origin": "http://evil.example"])
    #expect(foreign.status == 403)
    #expect(try json(try studio.request("GET", "/state"))["exposureBias"] as? Double == 0)
    let own = try studio.request(
      "POST", "/state", body: body, headers: ["Origin": "http://127.0.0.1:\(studio.port)"])
    #expect(own.status == 200)
    // A page on another host name pointed at 127.0.0.1 (DNS rebinding) reads nothing either.
    let rebound = try studio.request(
      "GET", "/frame.jpg", headers: ["Host": "evil.example:\(studio.port)"])
    #expect(rebound.status == 403)
    let socket = try studio.request(
      "GET", "/live",
      headers: [
        "Origin": "http://evil.example", "Upgrade": "websocket", "Connection": "Upgrade",
        "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
      ])
    #expect(socket.status == 403)
  }

  @Test(arguments: ["/../Package.swift", "/%2e%2e/x", "/Page/studio.js", "/nothing", "/state/"])
  func otherPathsAre404(path: String) throws {
    let studio = try StudioClient()
    let response = try studio.request("GET", path)
    #expect(response.status == 404)
    #expect(!response.text.contains("swift-tools-version"))
  }

  @Test func pageAndItsFilesAreServedAndOtherMethodsAre405() throws {
    let studio = try StudioClient()
    let page = try studio.request("GET", "/")
    #expect(page.status == 200)
    #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
    #expect(page.text.contains("/studio.js"))
    #expect(try studio.request("GET", "/studio.js").text.contains("WebSocket"))
    #expect(try studio.request("GET", "/studio.css").status == 200)
    let configuration = try json(try studio.request("GET", "/studio.json"))
    let screen = try #require(configuration["screen"] as? [String: Any])
    #expect(screen["width"] as? Int == 1206)
    #expect(screen["height"] as? Int == 2622)
    let controls = try #require(configuration["controls"] as? [[String: Any]])
    #expect(controls.compactMap { $0["name"] as? String }.contains("exposure-bias"))
    let put = try studio.request("PUT", "/state")
    #expect(put.status == 405)
    #expect(put.headers["allow"] == "GET, POST")
    #expect(try studio.request("POST", "/frame.jpg").status == 405)
    let stats = try json(try studio.request("GET", "/stats"))
    #expect(stats["samples"] as? Int == 0)
  }

  @Test func statsReportTheRenderTimeOfEveryFrame() throws {
    let studio = try StudioClient()
    #expect(try studio.request("GET", "/frame.jpg").status == 200)
    let first = try json(try studio.request("GET", "/stats"))
    let firstCount = try #require(first["renderSamples"] as? Int)
    #expect(firstCount >= 1)
    let p50 = try #require(first["renderP50Ms"] as? Double)
    let p99 = try #require(first["renderP99Ms"] as? Double)
    #expect(p50 > 0)
    #expect(p99 >= p50)
    // No page reported a latency: those stay empty.
    #expect(first["samples"] as? Int == 0)
    #expect(first["p50Ms"] is NSNull)
    // Every frame rendered adds its time.
    for exposure in [0.5, 1] {
      let body = Data(#"{"exposureBias": \#(exposure)}"#.utf8)
      #expect(try studio.request("POST", "/state", body: body).status == 200)
      #expect(try studio.request("GET", "/frame.jpg").status == 200)
    }
    let second = try json(try studio.request("GET", "/stats"))
    #expect(try #require(second["renderSamples"] as? Int) >= firstCount + 2)
  }

  @Test func ctrlCStopsTheServerWithExitZero() throws {
    let studio = try StudioClient()
    #expect(try studio.request("GET", "/state").status == 200)
    studio.process.send(SIGINT)
    #expect(studio.process.wait() == .exited(0))
    #expect(studio.standardError.contains("stopped by SIGINT"))
  }

  @Test func aPortInUseSaysSoAndABadAddressIsAUsageError() throws {
    let first = try StudioClient()
    defer {
      first.process.send(SIGINT)
      _ = first.process.wait()
    }
    let second = try CLIRunner.run(["studio", "--port", String(first.port)])
    #expect(second.status == 1)
    #expect(
      second.standardError
        == "framedial studio: cannot listen on 127.0.0.1:\(first.port): another program listens "
        + "there; choose another port with --port N, or --port 0 for any free one\n")
    let badAddress = try CLIRunner.run(["studio", "--port", "0", "--listen", "studio.example"])
    #expect(badAddress.status == 2)
    #expect(
      badAddress.standardError.hasPrefix(
        "framedial studio: cannot listen on 'studio.example': not an IP address"))
  }

  @Test func aMissingImageIsNamed() throws {
    let result = try CLIRunner.run(["studio", "/nonexistent/photo.jpg", "--port", "0"])
    #expect(result.status == 1)
    #expect(result.standardError.contains("/nonexistent/photo.jpg"))
  }
}
