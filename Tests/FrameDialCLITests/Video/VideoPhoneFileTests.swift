import Foundation
import TestSupport
import Testing

/// `framedial video` on files as phones record them: HDR HEVC rotated in a MOV, with tracks FFmpeg
/// cannot copy (a data track, audio of an unknown codec) beside usable audio, at a variable frame rate,
/// and Dolby Vision whose base layer is HLG.
@Suite struct VideoPhoneFileTests {
  @Test func aRotatedHLGMovWithDataAndUnknownAudioKeepsWhatItCan() throws {
    let root = try CLIRunner.scratchFolder("video-phone")
    defer { try? FileManager.default.removeItem(at: root) }
    // Frames 2 and 3 left out: a gap, so the frame rate varies.
    let video = root.appendingPathComponent("video.mov")
    try VideoClips.make(
      video,
      VideoClips.testSource(size: "160x90", rate: 10, seconds: 0.8)
        + ["-vf", "select='not(eq(n\\,2)+eq(n\\,3))'", "-vsync", "vfr"]
        + HDRClips.encoding(.hlg))
    // Audio 1 is PCM relabelled `apac` (an iPhone's spatial audio, which FFmpeg 5.1 does not know),
    // audio 2 AAC; a timecode data track; the display matrix turns it 90°.
    let muxed = root.appendingPathComponent("muxed.mov")
    try VideoClips.make(
      muxed,
      ["-i", video.path] + VideoClips.tone(seconds: 0.8) + VideoClips.tone(seconds: 0.8)
        + [
          "-map", "0:v", "-map", "1:a", "-map", "2:a", "-c:v", "copy", "-c:a:0", "pcm_s16le",
          "-c:a:1", "aac", "-metadata:s:v:0", "rotate=90", "-timecode", "00:00:00:00",
        ])
    var bytes = try Data(contentsOf: muxed)
    let pcm = try #require(bytes.range(of: Data("sowt".utf8)))
    bytes.replaceSubrange(pcm, with: Data("apac".utf8))
    let phone = root.appendingPathComponent("phone.mov")
    try bytes.write(to: phone)
    let probed = try VideoClips.streams(phone)
    #expect(probed.map { $0["codec_tag_string"] as? String } == ["hev1", "apac", "mp4a", "tmcd"])

    let info = try CLIRunner.run(["info", phone.path])
    #expect(
      info.standardOutput.contains("streams: video hevc, audio apac, audio aac, data tmcd"),
      "\(info.standardOutput)")
    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(["video", phone.path, "-o", output.path, "--set", "ev=0.3"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "stream 1 (audio apac, which FFmpeg cannot decode or copy) is not copied"),
      "\(result.standardError)")
    #expect(result.standardError.contains("stream 3 (data tmcd) is not copied"))
    let written = try VideoClips.streams(output)
    let audio = written.filter { $0["codec_type"] as? String == "audio" }
    #expect(audio.map { $0["codec_name"] as? String } == ["aac"])
    let picture = try #require(written.first { $0["codec_type"] as? String == "video" })
    #expect(picture["color_transfer"] as? String == "arib-std-b67")
    let sideData = picture["side_data_list"] as? [[String: Any]] ?? []
    #expect(sideData.contains { ($0["rotation"] as? NSNumber)?.doubleValue.magnitude == 90 })
    let times = try VideoClips.frameTimes(output)
    #expect(times == (try VideoClips.frameTimes(phone)))
    #expect(times.count == 6)
  }

  @Test func anAudioTrackTheContainerCannotHoldIsLeftOutOnlyWhenAnotherIsCopied() throws {
    let root = try CLIRunner.scratchFolder("video-phone-audio")
    defer { try? FileManager.default.removeItem(at: root) }
    let both = root.appendingPathComponent("both.mkv")
    try VideoClips.make(
      both,
      VideoClips.testSource(size: "160x90", seconds: 0.4) + VideoClips.tone(seconds: 0.4)
        + VideoClips.tone(seconds: 0.4)
        + [
          "-map", "0:v", "-map", "1:a", "-map", "2:a", "-c:v", "libx264", "-c:a:0", "pcm_s16le",
          "-c:a:1", "aac",
        ])
    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(["video", both.path, "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "stream 1 (audio pcm_s16le, which FFmpeg's mp4 muxer cannot hold) is not copied"),
      "\(result.standardError)")
    #expect(
      try VideoClips.streams(output).filter { $0["codec_type"] as? String == "audio" }
        .map { $0["codec_name"] as? String } == ["aac"])
    // The only audio track is not dropped: the run stops and says which container keeps it.
    let alone = root.appendingPathComponent("alone.mkv")
    try VideoClips.make(
      alone, ["-i", both.path, "-map", "0:v", "-map", "0:a:0", "-c", "copy"])
    let refused = try CLIRunner.run(["video", alone.path, "-o", output.path, "--overwrite"])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("pcm_s16le"), "\(refused.standardError)")
  }

  @Test func dolbyVisionIsReadAndWrittenAsItsHLGBaseLayerWithANote() throws {
    let root = try CLIRunner.scratchFolder("video-phone-dovi")
    defer { try? FileManager.default.removeItem(at: root) }
    let clip = root.appendingPathComponent("dovi.mp4")
    try HDRClips.moving(clip, .hlg, seconds: 0.3)
    try HDRClips.addDolbyVisionConfiguration(to: clip)

    let info = try CLIRunner.run(["info", clip.path])
    #expect(
      info.standardOutput.contains("Dolby Vision profile 8 level 4, compatibility id 4, RPU"),
      "\(info.standardOutput)")
    let json = try CLIRunner.run(["info", "--json", clip.path])
    let facts = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let vision = try #require(facts["dolbyVision"] as? [String: Any])
    #expect(vision["profile"] as? Int == 8 && vision["compatibilityId"] as? Int == 4)

    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(["video", clip.path, "-o", output.path, "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let note =
      "is Dolby Vision (profile 8, compatibility id 4): FFmpeg 5.1's encoder cannot carry its "
      + "RPU, so the output is plain HLG from its base layer"
    #expect(
      result.standardError.components(separatedBy: note).count == 2, "\(result.standardError)")
    let done = try #require(
      result.standardOutput.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.first { $0["event"] as? String == "done" })
    #expect((done["notes"] as? [String])?.first?.contains(note) == true, "\(done)")
    // The output is plain HLG: no Dolby Vision configuration.
    let again = try CLIRunner.run(["info", "--json", output.path])
    #expect(again.standardOutput.contains(#""dolbyVision":null"#), "\(again.standardOutput)")
    #expect(again.standardOutput.contains(#""dynamicRange":"hlg""#))
  }
}
