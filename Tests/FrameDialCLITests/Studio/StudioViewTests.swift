import Foundation
import JSON
import Studio
import TestSupport
import Testing
import Vips

/// `framedial studio` renders live frames at the size the page shows the viewfinder (the page's `view`
/// message over `/live`), never above the viewfinder's own size, and sends the next frame once the page
/// says it decoded the last.
@Suite struct StudioViewTests {
  @Test func framesComeAtThePagesDisplayedSizeNeverAboveTheViewfinders() throws {
    let folder = try CLIRunner.scratchFolder("studio-view")
    defer { try? FileManager.default.removeItem(at: folder) }
    // 2412 × 1356 is the iPhone 16 Pro's 1206 × 678 viewfinder at twice its size.
    let path = folder.appendingPathComponent("wide.png").path
    try Image.solid(width: 2412, height: 1356, color: [96, 104, 112]).write(to: path)
    let studio = try StudioClient([path])
    let socket = try studio.live()
    // Before the page tells its size: the viewfinder's.
    let opening = try receiveFrame(socket)
    let first = try Image(bytes: opening.jpeg)
    #expect(first.width == 1206 && first.height == 678)
    try socket.send(#"{"type":"decoded"}"#)
    // A page showing the viewfinder at 603 × 339 device pixels (a box of another shape fits it).
    try socket.send(#"{"type":"view","width":603,"height":400}"#)
    let half = try receiveFrame(socket)
    let small = try Image(bytes: half.jpeg)
    #expect(small.width == 603 && small.height == 339)
    let generation = try #require(opening.message["generation"])
    #expect(half.message["generation"] == generation, "the same state, at the new size")
    // `/frame.jpg` is the latest live frame.
    #expect(try Image(bytes: try studio.request("GET", "/frame.jpg").body).width == 603)
    // A box larger than the viewfinder gets the viewfinder's size, not more.
    try socket.send(#"{"type":"decoded"}"#)
    try socket.send(#"{"type":"view","width":5000,"height":3000}"#)
    let large = try Image(bytes: try receiveFrame(socket).jpeg)
    #expect(large.width == 1206 && large.height == 678)
    // A state change after that comes at the size last asked for.
    try socket.send(#"{"type":"decoded"}"#)
    try socket.send(#"{"type":"view","width":402,"height":226}"#)
    _ = try receiveFrame(socket)
    try socket.send(#"{"type":"decoded"}"#)
    try socket.send(#"{"type":"state","seq":1,"state":{"exposureBias":1}}"#)
    let changed = try receiveFrame(socket)
    #expect(changed.message["seq"] == .number(1))
    let bright = try Image(bytes: changed.jpeg)
    #expect(bright.width == 402 && bright.height == 226)
    #expect(try bright.average() > (try first.average()) + 30)
  }

  @Test func aViewMessageWithoutWholePixelsIsAnErrorAndTheServerGoesOn() throws {
    let studio = try StudioClient()
    let socket = try studio.live()
    try socket.send(#"{"type":"view","width":0,"height":300}"#)
    let error = try socket.receiveJSON { $0["type"] == .string("error") }
    #expect(
      error["message"]?.string
        == "a \"view\" message needs a \"width\" and a \"height\": whole numbers of device pixels "
        + "from 1 to 16384")
    #expect(try studio.request("GET", "/frame.jpg").status == 200)
    #expect(studio.process.isRunning)
  }

  @Test func aPageOnThisMachineGetsRawRGBAFramesAndJPEGsAreStillMadeForOthers() throws {
    let folder = try CLIRunner.scratchFolder("studio-raw")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("grey.png").path
    try Image.solid(width: 1206, height: 678, color: [96, 104, 112]).write(to: path)
    let studio = try StudioClient([path])
    let raw = try studio.live()
    _ = try receiveFrame(raw)
    try raw.send(#"{"type":"decoded"}"#)
    try raw.send(#"{"type":"view","width":402,"height":226,"format":"rgba"}"#)
    let frame = try receiveFrame(raw)
    #expect(frame.message["format"] == .string("rgba"))
    #expect(frame.message["width"] == .number(402) && frame.message["height"] == .number(226))
    #expect(frame.jpeg.count == 402 * 226 * 4)
    // The render of a flat grey at exposure 0 is that grey, opaque, in every pixel.
    let pixels = [UInt8](frame.jpeg)
    #expect((0..<(402 * 226)).allSatisfy { pixels[4 * $0..<4 * $0 + 4] == [96, 104, 112, 255] })
    // A page that asked for nothing gets the same frame as a JPEG, and so does `/frame.jpg`.
    let other = try studio.live()
    let jpeg = try receiveFrame(other)
    #expect(jpeg.message["format"] == .string("jpeg"))
    let decoded = try Image(bytes: jpeg.jpeg)
    let mean = try decoded.average()
    #expect(decoded.width == 402 && abs(mean - 104) < 1)
    let response = try studio.request("GET", "/frame.jpg")
    #expect(response.headers["content-type"] == "image/jpeg")
    #expect(try Image(bytes: response.body).width == 402)
    // A change reaches the raw page brighter, in RGBA.
    try raw.send(#"{"type":"decoded"}"#)
    try raw.send(#"{"type":"state","seq":1,"state":{"exposureBias":1}}"#)
    let changed = try receiveFrame(raw)
    #expect(changed.message["seq"] == .number(1) && changed.message["format"] == .string("rgba"))
    let bright = [UInt8](changed.jpeg)
    #expect(bright.count == 402 * 226 * 4 && bright[0] > 96 + 30 && bright[3] == 255)
  }

  /// The next frame `live` receives: its `frame` message and the JPEG that follows it.
  func receiveFrame(_ live: LiveClient) throws -> (message: JSONValue, jpeg: Data) {
    let message = try live.receiveJSON { $0["type"] == .string("frame") }
    guard case .binary(let jpeg) = try live.receive() else {
      throw StudioError("a frame message not followed by a JPEG")
    }
    return (message, jpeg)
  }
}
