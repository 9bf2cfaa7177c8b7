import Controls
import Foundation
import FrameDial
import Studio
import TestSupport
import Testing
import Vips

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial studio`'s presses, downloads and limits, as the page and scripts use them: the Camera
/// Control's presses over `/live`, the full-size capture, the look as a `.cube`, the gesture timeline,
/// and the size limits on requests.
@Suite struct StudioPressTests {
  func json(_ response: StudioClient.Response) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
  }

  /// A 2000 × 1500 mid-grey JPEG, larger than any viewfinder the studio shows it in.
  func largePicture(in folder: URL) throws -> String {
    let path = folder.appendingPathComponent("large.jpg").path
    try Image.solid(width: 2000, height: 1500, color: [96, 104, 112]).write(to: path)
    return path
  }

  @Test func captureIsTheFullSizePictureRenderedWithTheState() throws {
    let folder = try CLIRunner.scratchFolder("studio-capture")
    defer { try? FileManager.default.removeItem(at: folder) }
    let studio = try StudioClient([try largePicture(in: folder)])
    let plain = try studio.request("GET", "/capture.jpg")
    #expect(plain.status == 200)
    #expect(plain.headers["content-type"] == "image/jpeg")
    #expect(plain.headers["content-disposition"]?.hasPrefix("attachment") == true)
    let dark = try Image(bytes: plain.body)
    #expect(dark.width == 2000 && dark.height == 1500)
    // As `apply` writes it: an sRGB profile is added to a picture that had none.
    #expect(dark.hasICCProfile)
    // The live frame is viewfinder-sized; the capture is not.
    #expect(try Image(bytes: try studio.request("GET", "/frame.jpg").body).width < 2000)
    #expect(
      try studio.request("POST", "/state", body: Data(#"{"exposureBias":1}"#.utf8)).status == 200)
    let bright = try Image(bytes: try studio.request("GET", "/capture.jpg").body)
    #expect(bright.width == 2000 && bright.height == 1500)
    let (before, after) = (try dark.average(), try bright.average())
    #expect(after > before + 30, "mean \(before) → \(after)")
  }

  /// The capture is a JPEG: of an HDR photo it is the SDR picture, and the studio's console says
  /// so as `apply` does, once a capture.
  @Test func aCaptureOfAnHDRPhotoSaysItsGainMapWasNotKept() throws {
    let folder = try CLIRunner.scratchFolder("studio-capture-hdr")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = folder.appendingPathComponent("hdr.heic").path
    try HDRPhotos.write(photo, width: 240, height: 160, exif: AppleMakerNotes.hdrPhotoEXIF)
    let studio = try StudioClient([photo])
    let said =
      "framedial studio: warning: \(photo): its HDR gain map (Apple, headroom 1.72 stops) was not "
      + "kept: the output is its SDR picture, which an HDR screen shows without the brighter "
      + "highlights (--format heic keeps it)"
    for captures in 1...2 {
      let capture = try studio.request("GET", "/capture.jpg")
      #expect(capture.status == 200)
      #expect(try Image(bytes: capture.body).width == 240)
      let lines = studio.standardError.split(separator: "\n").filter { $0.contains("gain map") }
      #expect(lines == Array(repeating: Substring(said), count: captures), "\(lines)")
    }
  }

  @Test func lookCubeIsTheLUTOfTheStateAndAutoWhiteBalanceIsRefused() throws {
    let studio = try StudioClient(["--set", "wb=tungsten", "--set", "contrast=1.2"])
    let look = try studio.request("GET", "/look.cube")
    #expect(look.status == 200)
    #expect(look.headers["content-disposition"]?.contains("framedial-look.cube") == true)
    let lines = look.text.split(separator: "\n").map(String.init)
    #expect(lines.contains("LUT_3D_SIZE 33"))
    let nodes = lines.filter { line in
      let parts = line.split(separator: " ")
      return parts.count == 3 && parts.allSatisfy { Double($0) != nil }
    }
    #expect(nodes.count == 33 * 33 * 33)
    // Tungsten balance cools the picture: the white node keeps more blue than red.
    let white = try #require(nodes.last?.split(separator: " ").compactMap { Double($0) })
    #expect(white[2] > white[0])
    #expect(
      try studio.request("POST", "/state", body: Data(#"{"whiteBalance":"auto"}"#.utf8)).status
        == 200)
    let refused = try studio.request("GET", "/look.cube")
    #expect(refused.status == 409)
    #expect(try json(refused)["error"] as? String == ColourLUTError.autoWhiteBalance.description)
  }

  @Test func aRecordedTimelineReplaysInFramesFromTheStateItStartedAt() throws {
    let folder = try CLIRunner.scratchFolder("studio-timeline")
    defer { try? FileManager.default.removeItem(at: folder) }
    let studio = try StudioClient(["--set", "contrast=1.2"])
    let started = try json(
      try studio.request("POST", "/record", body: Data(#"{"recording":true}"#.utf8)))
    #expect(started["recording"] as? Bool == true)
    #expect(started["events"] as? Int == 1)  // the starting contrast
    for change in [#"{"exposureBias":1}"#, #"{"filter":"mono","whiteBalance":4500}"#] {
      #expect(try studio.request("POST", "/state", body: Data(change.utf8)).status == 200)
    }
    // A full press from the page is recorded too, and asks the page to download the capture.
    let live = try studio.live()
    try live.send(#"{"type":"press","phase":"began","kind":"primary"}"#)
    try live.send(#"{"type":"press","phase":"ended","kind":"primary"}"#)
    let capture = try live.receiveJSON { $0["type"] == .string("capture") }
    #expect(capture["url"] == .string("/capture.jpg"))
    let stopped = try json(
      try studio.request("POST", "/record", body: Data(#"{"recording":false}"#.utf8)))
    #expect(stopped["recording"] as? Bool == false)
    #expect(stopped["events"] as? Int == 6)
    // A change after the stop is not recorded.
    #expect(try studio.request("POST", "/state", body: Data(#"{"tint":20}"#.utf8)).status == 200)
    let download = try studio.request("GET", "/timeline.jsonl")
    #expect(download.status == 200)
    #expect(download.headers["content-disposition"]?.hasPrefix("attachment") == true)
    let file = folder.appendingPathComponent("gestures.jsonl")
    try download.body.write(to: file)
    let timeline = try Timeline(contentsOf: file)
    #expect(timeline.events.count == 6)
    #expect(timeline.events.first?.time == 0)
    #expect(timeline.events.allSatisfy { $0.time < 60 })
    #expect(
      timeline.events.map(\.action).filter { if case .press = $0 { true } else { false } }
        == [
          .press(CaptureEvent(phase: .began, kind: .primary)),
          .press(CaptureEvent(phase: .ended, kind: .primary)),
        ])
    let end = try timeline.state(at: timeline.duration)
    #expect(
      end
        == ControlState(
          exposureBias: 1, contrast: 1.2, whiteBalance: .kelvin(4500), filter: .mono))
    let frames = try CLIRunner.run([
      "frames", "--size", "2x2", "--timeline", file.path, "--fps", "1",
    ])
    #expect(frames.status == 0, "\(frames.standardError)")
  }

  @Test func lightPressesOpenTheOverlayAndTheListAndAChoiceShowsAControl() throws {
    let studio = try StudioClient()
    let live = try studio.live()
    let first = try live.receiveJSON { $0["type"] == .string("state") }
    let hidden = try #require(first["overlay"])
    #expect(hidden["visible"] == .bool(false))
    // One light press: once no second press can follow, the overlay opens on the middle control.
    try live.send(#"{"type":"press","phase":"began","kind":"secondary"}"#)
    try live.send(#"{"type":"press","phase":"ended","kind":"secondary"}"#)
    let opened = try live.receiveJSON { message in
      message["overlay"]?["visible"] == .bool(true)
    }
    let overlay = try #require(opened["overlay"])
    #expect(overlay["control"] == .string("exposure-bias"))
    #expect(overlay["list"] == .bool(false))
    // A control chosen from the list is the one the overlay shows.
    try live.send(#"{"type":"choose","control":"zoom"}"#)
    let chosen = try live.receiveJSON { message in
      message["overlay"]?["control"] == .string("zoom")
    }
    #expect(chosen["overlay"]?["visible"] == .bool(true))
    try live.send(#"{"type":"choose","control":"iso"}"#)
    let refused = try live.receiveJSON { $0["type"] == .string("error") }
    #expect(refused["message"]?.string?.contains("no control named \"iso\"") == true)
    try live.send(#"{"type":"press","phase":"pressed","kind":"secondary"}"#)
    let badPhase = try live.receiveJSON { $0["type"] == .string("error") }
    #expect(badPhase["message"]?.string?.contains("allowed: began, ended, cancelled") == true)
  }

  @Test func aDragLandsAsTheCameraControlModelLandsAUsersSlide() throws {
    let studio = try StudioClient()
    let live = try studio.live()
    _ = try live.receiveJSON { $0["type"] == .string("state") }
    func exposure(_ message: JSONValue) -> Double? {
      message["state"]?["exposureBias"]?.number
    }
    // Exposure runs −8 … +8 EV with 0 prominent: a drag within 2 % of the range (0.32 EV) of 0 lands
    // on 0, one farther away where it ends.
    try live.send(#"{"type":"slide","seq":1,"control":"exposure-bias","value":0.5}"#)
    #expect(exposure(try live.receiveJSON { exposure($0) == 0.5 }) == 0.5)
    try live.send(#"{"type":"slide","seq":2,"control":"exposure-bias","value":0.25}"#)
    _ = try live.receiveJSON { exposure($0) == 0 }
    let state = try studio.request("GET", "/state")
    let json = try JSONSerialization.jsonObject(with: state.body) as? [String: Any]
    #expect(json?["exposureBias"] as? Double == 0)
    // The same value sent as a state change is kept as it is: only drags land.
    try live.send(#"{"type":"state","seq":3,"state":{"exposureBias":0.25}}"#)
    #expect(exposure(try live.receiveJSON { exposure($0) == 0.25 }) == 0.25)
    // Contrast lands on its prominent 1 (the range 0 … 2 gives a reach of 0.04).
    try live.send(#"{"type":"slide","seq":4,"control":"contrast","value":1.03}"#)
    _ = try live.receiveJSON { $0["state"]?["contrast"] == .number(1) }
    try live.send(#"{"type":"slide","seq":5,"control":"iso","value":100}"#)
    let refused = try live.receiveJSON { $0["type"] == .string("error") }
    #expect(refused["message"] == .string("no slider named \"iso\""))
  }

  @Test func oversizedBodiesAre413AndTheServerGoesOn() throws {
    let studio = try StudioClient()
    let padding = String(repeating: " ", count: 70 * 1024)
    let big = try studio.request(
      "POST", "/state", body: Data(("{\"exposureBias\": 1" + padding + "}").utf8))
    #expect(big.status == 413)
    #expect(
      try json(big)["error"] as? String == "a request body may be at most 64 KiB, not 71699 bytes")
    let state = try json(try studio.request("GET", "/state"))
    #expect(state["exposureBias"] as? Double == 0)
    // A body without its size (chunked) is refused before it is read.
    let socket = try studio.connect()
    defer { close(socket) }
    let head =
      "POST /state HTTP/1.1\r\nHost: 127.0.0.1:\(studio.port)\r\nTransfer-Encoding: chunked\r\n"
      + "Connection: close\r\n\r\n12\r\n{\"exposureBias\": 1}\r\n0\r\n\r\n"
    try StudioClient.write(Data(head.utf8), to: socket)
    var answer = [UInt8](repeating: 0, count: 4096)
    let count = recv(socket, &answer, answer.count, 0)
    #expect(String(decoding: answer[0..<max(0, count)], as: UTF8.self).hasPrefix("HTTP/1.1 411"))
    #expect(try json(try studio.request("GET", "/state"))["exposureBias"] as? Double == 0)
    #expect(
      try studio.request("POST", "/state", body: Data(#"{"exposureBias":1}"#.utf8)).status == 200)
  }

  @Test func anOversizedLiveMessageClosesTheConnectionWithAReason() throws {
    let studio = try StudioClient()
    let live = try studio.live()
    let padding = String(repeating: " ", count: 100 * 1024)
    try live.send(#"{"type":"state","state":{"exposureBias":1}"# + padding + "}")
    var errors: [String] = []
    while let message = try live.receive() {
      if case .text(let text) = message, text.contains("\"error\"") { errors.append(text) }
    }
    let closed = try #require(live.closed)
    #expect(closed.code == 1009)
    #expect(closed.reason.contains("at most 64 KiB"))
    #expect(errors.count == 1)
    // Nothing of it was applied, and the server answers the next page.
    #expect(try json(try studio.request("GET", "/state"))["exposureBias"] as? Double == 0)
    let next = try studio.live()
    try next.send(#"{"type":"state","seq":1,"state":{"exposureBias":0.5}}"#)
    _ = try next.receiveJSON { $0["state"]?["exposureBias"] == .number(0.5) }
    #expect(studio.process.isRunning)
  }
}
