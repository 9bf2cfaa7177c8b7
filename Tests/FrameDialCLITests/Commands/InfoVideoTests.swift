import Foundation
import TestSupport
import Testing

/// `framedial info` on videos: the facts FFmpeg reads of the stream (HDR's transfer and primaries
/// included), every stream, and whether `video` processes it — compared with what ffprobe says of the
/// same files.
@Suite struct InfoVideoTests {
  @Test func aVideoIsDescribedByItsStreamsAndAnHDRClipByItsTransferAndPrimaries() throws {
    let root = try CLIRunner.scratchFolder("info-video")
    defer { try? FileManager.default.removeItem(at: root) }
    let plain = root.appendingPathComponent("plain.mp4")
    try VideoClips.make(
      plain,
      VideoClips.testSource(size: "320x240", rate: 25, seconds: 2) + VideoClips.tone(seconds: 2)
        + [
          "-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries",
          "bt709", "-color_trc", "bt709", "-color_range", "tv", "-c:a", "aac", "-shortest",
        ])
    let rotated = root.appendingPathComponent("rotated.mp4")
    try VideoClips.make(rotated, ["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    let hdr = root.appendingPathComponent("hdr.mp4")
    try VideoClips.make(
      hdr,
      VideoClips.testSource(size: "160x120", seconds: 0.2)
        + [
          "-c:v", "libx264", "-pix_fmt", "yuv420p10le", "-color_trc", "arib-std-b67",
          "-color_primaries", "bt2020", "-colorspace", "bt2020nc",
        ])
    // An MP4 under a name no tool knows is still found by its content.
    let renamed = root.appendingPathComponent("clip.bin")
    try FileManager.default.copyItem(at: plain, to: renamed)

    let text = try CLIRunner.run(["info", rotated.path, hdr.path, renamed.path])
    #expect(text.status == 0, "\(text.standardError)")
    let lines = text.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(
      lines[0].hasPrefix(
        "\(rotated.path): video 320×240, h264 yuv420p 8-bit, 25 fps, 2.0"), "\(lines[0])")
    #expect(lines[0].contains("50 frames"))
    #expect(lines[0].contains("rotated "))
    #expect(lines[0].contains("colour bt709/tv/bt709/bt709 (converted as bt709)"))
    #expect(lines[0].hasSuffix("; streams: video h264, audio aac"), "\(lines[0])")
    #expect(!lines[0].contains("not processed"))
    #expect(lines[1].contains("h264 yuv420p10le 10-bit"), "\(lines[1])")
    #expect(lines[1].contains(", HDR HLG (arib-std-b67, bt2020), "), "\(lines[1])")
    #expect(!lines[1].contains("not processed"))
    #expect(lines[2].hasPrefix("\(renamed.path): video 320×240, h264 yuv420p 8-bit"), "\(lines[2])")

    // JSON carries the same facts; ffprobe agrees on them.
    let json = try CLIRunner.run(["info", "--json", rotated.path, hdr.path])
    #expect(json.status == 0)
    let objects = json.standardOutput.split(separator: "\n").map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }
    let facts = objects[0]
    let probed = try VideoClips.streams(rotated)
    let video = try #require(probed.first { $0["codec_type"] as? String == "video" })
    #expect(facts["kind"] as? String == "video" && facts["processed"] as? Bool == true)
    #expect(facts["width"] as? Int == video["width"] as? Int)
    #expect(facts["height"] as? Int == video["height"] as? Int)
    #expect(facts["codec"] as? String == video["codec_name"] as? String)
    #expect(facts["pixelFormat"] as? String == video["pix_fmt"] as? String)
    #expect(facts["frames"] as? Int == Int(video["nb_frames"] as? String ?? ""))
    let sideData = video["side_data_list"] as? [[String: Any]] ?? []
    let rotation = sideData.compactMap { ($0["rotation"] as? NSNumber)?.doubleValue }.first
    #expect(rotation != nil && (facts["rotation"] as? Double) == rotation)
    #expect(
      facts["streams"] as? [String]
        == probed.map {
          "\($0["codec_type"] as? String ?? "") \($0["codec_name"] as? String ?? "")"
        })
    #expect(objects[1]["processed"] as? Bool == true && objects[1]["bitDepth"] as? Int == 10)
    #expect(objects[1]["refusal"] is NSNull)
    #expect(objects[1]["dynamicRange"] as? String == "hlg")
    #expect(objects[1]["transfer"] as? String == "arib-std-b67")
    #expect(objects[1]["primaries"] as? String == "bt2020")
    #expect(objects[1]["masteringDisplay"] is NSNull && objects[1]["dolbyVision"] is NSNull)
    #expect(objects[0]["dynamicRange"] as? String == "sdr")
  }
}
