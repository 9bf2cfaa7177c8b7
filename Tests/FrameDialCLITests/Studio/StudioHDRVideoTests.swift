import Foundation
import TestSupport
import Testing
import Vips

/// `framedial studio` on HDR video: it plays tone-mapped to SDR (as `video --hdr sdr` writes it), not
/// with its HLG codes shown as if they were SDR, and its controls act in HDR light before the tone
/// mapping, as `video --hdr sdr` applies them.
@Suite struct StudioHDRVideoTests {
  @Test func anHLGClipIsShownToneMapped() throws {
    let root = try CLIRunner.scratchFolder("studio-video-hdr")
    defer { try? FileManager.default.removeItem(at: root) }
    // HLG reference white (75 %): tone-mapped it is about 217 of 255; read as SDR codes, 191.
    let clip = root.appendingPathComponent("white.mkv")
    try HDRClips.patch(clip, .hlg, width: 160, height: 120, frames: 10) { _, _ in
      HDRClips.codes(red: 0.75, green: 0.75, blue: 0.75)
    }
    let studio = try StudioClient([clip.path])
    let response = try studio.request("GET", "/frame.jpg")
    #expect(response.status == 200)
    let image = try Image(bytes: response.body)
    #expect(image.width == 160 && image.height == 120)
    let mean = try image.average()
    #expect(mean > 208 && mean < 226, "\(mean)")
    #expect(studio.process.isRunning)
  }

  @Test func theControlsActInHDRLightThenTheFrameIsToneMapped() throws {
    let root = try CLIRunner.scratchFolder("studio-video-hdr-ev")
    defer { try? FileManager.default.removeItem(at: root) }
    // Two flat greys: HLG 50 % signal on the left, reference white (75 %) on the right.
    let (width, height) = (160, 120)
    let clip = root.appendingPathComponent("greys.mkv")
    try HDRClips.patch(clip, .hlg, width: width, height: height, frames: 10) { x, _ in
      let signal = x < width / 2 ? 0.5 : 0.75
      return HDRClips.codes(red: signal, green: signal, blue: signal)
    }
    /// The mean of each half of `image`, away from the edge between them.
    func halves(_ image: Image) throws -> [Double] {
      #expect(image.width == width && image.height == height)
      return try [0, width / 2].map { left in
        try image.extractArea(left: left + 8, top: 8, width: width / 2 - 16, height: height - 16)
          .average()
      }
    }
    func run(_ arguments: [String]) throws {
      let result = try CLIRunner.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.standardError)")
    }
    // The studio's frame at +1 EV.
    let studio = try StudioClient([clip.path, "--set", "ev=1"])
    let response = try studio.request("GET", "/frame.jpg")
    #expect(response.status == 200)
    let shown = try halves(try Image(bytes: response.body))
    // `video --hdr sdr`'s picture of the same frame: the file's first frame, and the --frame-at still.
    let sdr = root.appendingPathComponent("sdr.mkv")
    try run(["video", clip.path, "-o", sdr.path, "--hdr", "sdr", "--set", "ev=1", "--crf", "0"])
    let written = try HDRClips.rgb24(sdr).withUnsafeBytes {
      try halves(
        try Image(wrapping: $0, layout: FrameLayout(width: width, height: height, bands: 3)))
    }
    let still = root.appendingPathComponent("still.png")
    try run(["video", clip.path, "--frame-at", "0", "-o", still.path, "--set", "ev=1"])
    let stillMeans = try halves(try Image(contentsOf: still.path))
    // Tone-mapped first, +1 EV on the SDR picture after: what the studio showed before.
    let plain = root.appendingPathComponent("plain.png")
    try run(["video", clip.path, "--frame-at", "0", "-o", plain.path])
    let late = root.appendingPathComponent("late.png")
    try run(["apply", plain.path, "-o", late.path, "--set", "ev=1"])
    let lateMeans = try halves(try Image(contentsOf: late.path))
    // Within 3 of 255: JPEG at quality 85 on flat greys, and the file's 8-bit 4:2:0 round trip.
    for index in 0..<2 {
      #expect(abs(shown[index] - stillMeans[index]) <= 3, "\(shown) vs the still's \(stillMeans)")
      #expect(abs(shown[index] - written[index]) <= 3, "\(shown) vs the file's \(written)")
    }
    // Reference white at +1 EV: rolled off by the tone mapping when doubled in HDR light (242 of 255),
    // clipped when doubled on the SDR picture (255).
    #expect(shown[1] < lateMeans[1] - 8, "\(shown) vs tone-mapped then +1 EV \(lateMeans)")
    #expect(studio.process.isRunning)
  }
}
