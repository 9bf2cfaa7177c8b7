import Foundation
import FrameDial
import TestSupport
import Testing

/// A video handed to a command that reads stills is named as a video, with the command that processes
/// it, instead of the message of whichever image loader claimed its bytes (ImageMagick's, blocked).
@Suite struct VideoGivenAsStillTests {
  @Test(arguments: [
    ("clip.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], "MP4"),
    ("clip.mov", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], "QuickTime"),
    ("clip.mkv", ["-c:v", "ffv1"], "Matroska"),
    ("clip.avi", ["-c:v", "mjpeg"], "AVI"),
    ("clip.ts", ["-c:v", "mpeg2video"], "MPEG transport stream"),
  ])
  func applyAndBatchPointToTheVideoCommand(name: String, codec: [String], container: String) throws
  {
    let folder = try CLIRunner.scratchFolder("video-as-still")
    defer { try? FileManager.default.removeItem(at: folder) }
    let clip = folder.appendingPathComponent(name)
    try VideoClips.make(clip, VideoClips.testSource(seconds: 0.2) + codec)
    // Under an image's name too, so that only the content can tell.
    let disguised = folder.appendingPathComponent("holiday.jpg")
    try FileManager.default.copyItem(at: clip, to: disguised)
    let hint =
      "a video (\(container)), not a still image: process it with framedial video IN -o OUT"
    for input in [clip, disguised] {
      let output = folder.appendingPathComponent("out.jpg")
      let apply = try CLIRunner.run(["apply", input.path, "-o", output.path])
      #expect(apply.status == 1)
      #expect(
        apply.standardError == "framedial apply: \(input.path): \(hint), or take one frame with "
          + "framedial video IN --frame-at T -o OUT.png\n", "\(apply.standardError)")
      #expect(!FileManager.default.fileExists(atPath: output.path))
      let batch = try CLIRunner.run([
        "batch", input.path, "-o", folder.appendingPathComponent("out").path,
      ])
      #expect(batch.status == 1)
      #expect(batch.standardError.contains(hint), "\(batch.standardError)")
      #expect(!batch.standardError.contains("untrusted loaders"))
    }
  }

  @Test func aStillStartingWithTheTransportStreamSyncByteIsNotCalledAVideo() {
    // One 0x47 ('G') alone is a letter, not a stream: a text file starting with G stays "not an image".
    let bytes = Array("GIMP palette, not a video".utf8)
    #expect(
      ImageSniffer.videoContainer(ofHeader: bytes + [UInt8](repeating: 32, count: 200)) == nil)
    var stream = [UInt8](repeating: 0xFF, count: 376)
    (stream[0], stream[188]) = (0x47, 0x47)
    #expect(ImageSniffer.videoContainer(ofHeader: stream) == "MPEG transport stream")
  }
}
