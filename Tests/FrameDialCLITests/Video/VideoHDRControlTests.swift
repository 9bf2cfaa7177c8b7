import Foundation
import TestSupport
import Testing

/// The controls on HDR video, end to end: `framedial video` decodes an HLG or PQ clip, applies the
/// state in the clip's own light (HLG: scene light; PQ: display light, 203 cd/m² as 1.0) and writes it
/// kept HDR; each grey patch's code is checked against the BT.2100 formulas.
@Suite struct VideoHDRControlTests {
  /// The first frame's 10-bit Y′, Cb and Cr planes of `url`, averaged over the frame.
  static func meanCodes(_ url: URL) throws -> (luma: Double, blue: Double, red: Double) {
    let result = try VideoClips.runForData(
      "ffmpeg",
      [
        "-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt",
        "yuv420p10le", "-",
      ])
    let samples = result.output.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    let lumaCount = samples.count * 2 / 3
    let chromaCount = lumaCount / 4
    func mean(_ range: Range<Int>) -> Double {
      Double(samples[range].reduce(0) { $0 + Int($1) }) / Double(max(range.count, 1))
    }
    return (
      mean(0..<lumaCount), mean(lumaCount..<(lumaCount + chromaCount)),
      mean((lumaCount + chromaCount)..<(lumaCount + 2 * chromaCount))
    )
  }

  /// HLG's inverse OETF: signal 0 … 1 to scene light 0 … 1.
  static func hlgLight(_ signal: Double) -> Double {
    let (a, b, c) = (0.17883277, 0.28466892, 0.55991073)
    return signal <= 0.5 ? signal * signal / 3 : (exp((signal - c) / a) + b) / 12
  }

  @Test(arguments: [
    // (transfer, input signal, exposure bias, expected output signal)
    (HDRClips.Transfer.hlg, 0.5, 1.0, HDRClips.hlg(2 * hlgLight(0.5))),
    (HDRClips.Transfer.hlg, 0.75, -1.0, HDRClips.hlg(0.5 * hlgLight(0.75))),
    (HDRClips.Transfer.pq, HDRClips.pq(nits: 100), 1.0, HDRClips.pq(nits: 200)),
    (HDRClips.Transfer.pq, HDRClips.pq(nits: 203), -1.0, HDRClips.pq(nits: 101.5)),
  ])
  func exposureBiasScalesTheClipsOwnLight(
    transfer: HDRClips.Transfer, signal: Double, bias: Double, expected: Double
  ) throws {
    let root = try CLIRunner.scratchFolder("video-hdr-controls")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("grey.mkv")
    try HDRClips.patch(input, transfer) { _, _ in
      HDRClips.codes(red: signal, green: signal, blue: signal)
    }
    let output = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run([
      "video", input.path, "-o", output.path, "--set", "ev=\(bias)", "--crf", "0",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let (luma, blue, red) = try Self.meanCodes(output)
    // TV range: Y′ = 64 + 876 × signal. Read as sRGB, the same bias would land 20 and more codes away.
    let expectedLuma = 64 + 876 * expected
    #expect(abs(luma - expectedLuma) <= 3, "Y′ \(luma), expected \(expectedLuma)")
    #expect(abs(blue - 512) <= 2 && abs(red - 512) <= 2, "grey stays grey: \(blue), \(red)")
  }
}
