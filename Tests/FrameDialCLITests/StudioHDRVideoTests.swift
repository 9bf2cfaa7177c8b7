import Foundation
import Testing
import Vips

/// `framedial studio` on HDR video: it plays tone-mapped to SDR (as `video --hdr sdr` writes it), not
/// with its HLG codes shown as if they were SDR.
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
}
