import Foundation
import TestSupport
import Testing
import Vips

/// `framedial video` on HDR input (HLG, PQ): kept HDR (HEVC Main 10, tagged in the stream's VUI and
/// the container, PQ's mastering metadata carried) or tone-mapped to SDR BT.709 (`--hdr sdr`), on clips
/// libx265 makes; what each output is, as ffprobe reads it.
@Suite struct VideoHDRTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("video-hdr") }

  func video(_ url: URL) throws -> [String: Any] {
    try #require(try VideoClips.streams(url).first { $0["codec_type"] as? String == "video" })
  }

  @Test(arguments: [
    (HDRClips.Transfer.hlg, "out.mp4"), (HDRClips.Transfer.pq, "out.mov"),
    (HDRClips.Transfer.hlg, "out.mkv"),
  ])
  func keepWritesHEVCMain10TaggedInTheStreamAndTheContainer(
    transfer: HDRClips.Transfer, name: String
  ) throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in.mkv")
    try HDRClips.moving(input, transfer, x265: transfer == .pq ? HDRClips.masterDisplay : [])
    let output = root.appendingPathComponent(name)
    let result = try CLIRunner.run(["video", input.path, "-o", output.path, "--set", "ev=0.5"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.contains("\(transfer == .pq ? "PQ" : "HLG") kept, hevc yuv420p10le"))
    let stream = try video(output)
    #expect(stream["codec_name"] as? String == "hevc")
    #expect(stream["profile"] as? String == "Main 10")
    #expect(stream["pix_fmt"] as? String == "yuv420p10le")
    if name != "out.mkv" { #expect(stream["codec_tag_string"] as? String == "hvc1") }
    // The raw bitstream, out of its container, says the same through x265's VUI.
    let bitstream = try HDRClips.bitstreamVideo(output, in: root)
    for fields in [stream, bitstream] {
      #expect(fields["color_transfer"] as? String == transfer.rawValue, "\(fields)")
      #expect(fields["color_primaries"] as? String == "bt2020")
      #expect(fields["color_space"] as? String == "bt2020nc")
      #expect(fields["color_range"] as? String == "tv")
    }
    #expect(try VideoClips.frameTimes(output) == (try VideoClips.frameTimes(input)))
  }

  @Test func pqKeepsItsMasteringDisplayAndContentLightLevelInTheStreamAndTheContainer() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // x265 writes the metadata as SEI messages only: FrameDial reads them off the first frame.
    let input = root.appendingPathComponent("pq.mkv")
    try HDRClips.moving(input, .pq, x265: HDRClips.masterDisplay)
    let info = try CLIRunner.run(["info", "--json", input.path])
    let facts = try #require(
      try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
    #expect(facts["processed"] as? Bool == true && facts["dynamicRange"] as? String == "pq")
    let display = try #require(facts["masteringDisplay"] as? [String: Any])
    #expect(
      display["maxLuminance"] as? Double == 1000 && display["minLuminance"] as? Double == 0.005)
    #expect(
      display["red"] as? [Double] == [0.68, 0.32] && display["green"] as? [Double] == [0.265, 0.69])
    #expect(display["whitePoint"] as? [Double] == [0.3127, 0.329])
    let level = try #require(facts["contentLightLevel"] as? [String: Any])
    #expect(level["maxCLL"] as? Int == 1000 && level["maxFALL"] as? Int == 400)

    let output = root.appendingPathComponent("out.mov")
    let result = try CLIRunner.run(["video", input.path, "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    // In the container (mdcv, clli) …
    let streamSide = try video(output)["side_data_list"] as? [[String: Any]] ?? []
    // … and in the stream (SEI), as x265 wrote them from the input's.
    let frameSide = try HDRClips.frameSideData(output)
    for sideData in [streamSide, frameSide] {
      let mastering = try #require(
        sideData.first { $0["side_data_type"] as? String == "Mastering display metadata" },
        "\(sideData)")
      #expect(mastering["max_luminance"] as? String == "10000000/10000", "\(mastering)")
      #expect(mastering["min_luminance"] as? String == "50/10000")
      #expect(mastering["red_x"] as? String == "34000/50000")
      #expect(mastering["white_point_y"] as? String == "16450/50000")
      let light = try #require(
        sideData.first { $0["side_data_type"] as? String == "Content light level metadata" })
      #expect(light["max_content"] as? Int == 1000 && light["max_average"] as? Int == 400)
    }
  }

  @Test func theIdentityStateKeptIsAPlainReEncode() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("hlg.mp4")
    try HDRClips.moving(input, .hlg, size: "128x72", seconds: 0.3)
    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(
      ["video", input.path, "-o", output.path, "--crf", "20", "--encoder-preset", "fast"])
    #expect(result.status == 0, "\(result.standardError)")
    // ffmpeg's own libx265 re-encode at the same CRF and preset, with no processing.
    let reference = root.appendingPathComponent("ffmpeg.mp4")
    try VideoClips.make(
      reference,
      [
        "-i", input.path, "-c:v", "libx265", "-crf", "20", "-preset", "fast", "-x265-params",
        "log-level=error",
      ])
    // The frames went to the encoder as decoded, to the same encoder settings: the two encodes
    // decode to the same frames (x265 is deterministic whatever its threads' timing), where any
    // conversion through RGB would have changed them.
    let hashes = try HDRClips.frameHashes(output)
    #expect(hashes.count == 3)
    #expect(hashes == (try HDRClips.frameHashes(reference)))
    #expect(hashes != (try HDRClips.frameHashes(input)))
  }

  @Test(arguments: HDRClips.Transfer.allCases)
  func sdrPutsReferenceWhiteNearSDRWhiteBelowClipping(transfer: HDRClips.Transfer) throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // Reference white: HLG's 75 % signal, PQ's 203 cd/m², as a flat grey patch.
    let signal = transfer == .hlg ? 0.75 : HDRClips.pq(nits: 203)
    let input = root.appendingPathComponent("white.mkv")
    try HDRClips.patch(input, transfer) { _, _ in
      HDRClips.codes(red: signal, green: signal, blue: signal)
    }
    let output = root.appendingPathComponent("out.mp4")
    let result = try CLIRunner.run(["video", input.path, "--hdr", "sdr", "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("tone-mapped to SDR"), "\(result.standardOutput)")
    let stream = try video(output)
    #expect(stream["pix_fmt"] as? String == "yuv420p")
    #expect(stream["color_transfer"] as? String == "bt709")
    #expect(stream["color_primaries"] as? String == "bt709")
    #expect(stream["color_space"] as? String == "bt709")
    // SDR diffuse white with room above it for highlights: mobius puts 1.0 at 0.68 of the display's
    // light, TV-range luma 202; npl=100 (reference white at 2.0) would put it near 224, hable at
    // 1.0 near 160, and a clip at 235.
    let luma = try HDRClips.luma8(output)
    let mean = Double(luma.reduce(0) { $0 + Int($1) }) / Double(max(luma.count, 1))
    #expect(mean >= 195 && mean <= 215, "\(mean)")
  }

  @Test func fullRangeHLGStaysFullRangeKeptAndMapsLikeTVRange() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("full.mkv")
    try HDRClips.patch(input, .hlg, fullRange: true) { _, _ in
      HDRClips.codes(red: 0.75, green: 0.75, blue: 0.75, fullRange: true)
    }
    #expect(try video(input)["color_range"] as? String == "pc")
    let kept = root.appendingPathComponent("kept.mp4")
    let keep = try CLIRunner.run(["video", input.path, "-o", kept.path, "--set", "ev=0.2"])
    #expect(keep.status == 0, "\(keep.standardError)")
    #expect(try video(kept)["color_range"] as? String == "pc")
    #expect(try HDRClips.bitstreamVideo(kept, in: root)["color_range"] as? String == "pc")
    // Tone-mapped, reference white lands where TV-range input's does (TV-range luma about 202).
    let mapped = root.appendingPathComponent("sdr.mp4")
    let sdr = try CLIRunner.run(["video", input.path, "--hdr", "sdr", "-o", mapped.path])
    #expect(sdr.status == 0, "\(sdr.standardError)")
    #expect(try video(mapped)["color_range"] as? String == "tv")
    let luma = try HDRClips.luma8(mapped)
    let mean = Double(luma.reduce(0) { $0 + Int($1) }) / Double(max(luma.count, 1))
    #expect(mean >= 195 && mean <= 215, "\(mean)")
  }

  @Test func sdrKeepsAGreyRampMonotonicAndRollsHighlightsOffWithoutClipping() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // A grey ramp over the whole HLG signal range, in 64 steps of 2 columns each.
    let input = root.appendingPathComponent("ramp.mkv")
    try HDRClips.patch(input, .hlg, width: 128, height: 16) { x, _ in
      let signal = Double(x / 2) / 63
      return HDRClips.codes(red: signal, green: signal, blue: signal)
    }
    let output = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(
      ["video", input.path, "--hdr", "sdr", "--crf", "0", "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    let luma = try HDRClips.luma8(output)
    let row = (0..<64).map { Int(luma[8 * 128 + 2 * $0]) }
    for step in 1..<64 { #expect(row[step] >= row[step - 1] - 1, "\(row)") }
    #expect(row[0] <= 17 && row[63] >= 225, "\(row)")
    // Highlights roll off: between reference white (75 %) and the peak, steps still rise.
    let white = Int((0.75 * 63).rounded())
    #expect(row[63] - row[white] >= 15, "\(row)")
    #expect(row[63] - row[56] >= 3, "\(row)")
  }

  @Test func sdrKeepsABT709RedRed() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // BT.709 red at 20 % scene light in BT.2020 (BT.2087's matrix), HLG-encoded.
    let linear = [0.6274, 0.0691, 0.0164].map { $0 * 0.2 }
    let signal = linear.map(HDRClips.hlg)
    let input = root.appendingPathComponent("red.mkv")
    try HDRClips.patch(input, .hlg) { _, _ in
      HDRClips.codes(red: signal[0], green: signal[1], blue: signal[2])
    }
    let output = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(
      ["video", input.path, "--hdr", "sdr", "--crf", "0", "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    let pixels = try HDRClips.rgb24(output)
    let centre = (32 * 64 + 32) * 3
    let (red, green, blue) = (Int(pixels[centre]), Int(pixels[centre + 1]), Int(pixels[centre + 2]))
    // Still red: strong red, the other two low and close to each other (no orange or magenta cast).
    #expect(red >= 120 && green <= 40 && blue <= 40, "\(red) \(green) \(blue)")
    #expect(abs(green - blue) <= 12, "\(red) \(green) \(blue)")
  }

  @Test func sdrBringsABT2020GreenInsideBT709TowardsGreyKeepingItsLuminance() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    // BT.2020's own green primary, outside BT.709: clipped channel by channel it would turn towards
    // BT.709's green (yellower) and brighter; brought in towards grey it stays on its hue line.
    let input = root.appendingPathComponent("green.mkv")
    try HDRClips.patch(input, .hlg) { _, _ in
      HDRClips.codes(red: 0, green: HDRClips.hlg(0.2), blue: 0)
    }
    let output = root.appendingPathComponent("out.mkv")
    let result = try CLIRunner.run(
      ["video", input.path, "--hdr", "sdr", "--crf", "0", "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    let pixels = try HDRClips.rgb24(output)
    let centre = (32 * 64 + 32) * 3
    let (red, green, blue) = (Int(pixels[centre]), Int(pixels[centre + 1]), Int(pixels[centre + 2]))
    // In BT.709 light that green is (-0.39, 0.75, -0.07), luminance 0.45: brought in towards that
    // grey it is (0, 0.61, 0.17), which the tone curve scales as a whole; clipped channel by channel
    // it would be (0, 0.75, 0), blue lost. The codes are BT.1886-encoded (a 2.4 power).
    let light = [red, green, blue].map { pow(Double($0) / 255, 2.4) }
    #expect(red <= 3 && green >= 150, "\(red) \(green) \(blue)")
    let ratio = light[2] / light[1]
    #expect(ratio > 0.25 && ratio < 0.32, "blue/green \(ratio): \(red) \(green) \(blue)")
  }

  /// Saturated HLG patches (BT.2020 primaries and secondaries, BT.709's, a 75 % white), 16 × 16
  /// each, in a lossless clip.
  static func saturatedPatches(_ url: URL) throws {
    let colours: [(Double, Double, Double)] = [
      (1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 1, 1), (1, 0, 1), (1, 1, 0), (0.75, 0.75, 0.75),
      (0.75, 0.3, 0.05), (0.2, 0.7, 0.65), (0.5, 0.1, 0.6), (0.95, 0.9, 0.2), (0.1, 0.15, 0.4),
      (0.6, 0.6, 0.9), (0.3, 0.3, 0.3), (0.9, 0.5, 0.5), (0.05, 0.05, 0.05),
    ]
    try HDRClips.patch(url, .hlg, width: 64, height: 64) { x, y in
      let (red, green, blue) = colours[(y / 16) * 4 + x / 16]
      return HDRClips.codes(red: red, green: green, blue: blue)
    }
  }

  @Test(arguments: [[], ["--set", "ev=0.5", "--set", "wb=tungsten", "--set", "saturation=1.3"]])
  func theToneMappedVideosFrameIsTheFrameAtStillWithinOneCode(controls: [String]) throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("patches.mp4")
    try Self.saturatedPatches(input)
    let video = root.appendingPathComponent("sdr.mp4")
    let written = try CLIRunner.run(
      ["video", input.path, "-o", video.path, "--hdr", "sdr", "--codec", "h264", "--crf", "0"]
        + controls)
    #expect(written.status == 0, "\(written.standardError)")
    let still = root.appendingPathComponent("still.png")
    let taken = try CLIRunner.run(
      ["video", input.path, "--frame-at", "0", "-o", still.path] + controls)
    #expect(taken.status == 0, "\(taken.standardError)")
    // One tone mapping for both: the video's frame (lossless H.264) against the still in the same
    // 8-bit BT.709 Y′CbCr, in each patch's middle (8 × 8 luma, 4 × 4 chroma).
    let (frame, picture) = (try HDRClips.yuv420(video), try HDRClips.yuv420(still))
    try #require(frame.count == 64 * 64 * 3 / 2 && picture.count == frame.count)
    var largest = 0
    for (offset, width, block) in [(0, 64, 16), (64 * 64, 32, 8), (64 * 64 + 32 * 32, 32, 8)] {
      for patch in 0..<16 {
        let (top, left) = (patch / 4 * block, patch % 4 * block)
        for y in (top + block / 4)..<(top + block * 3 / 4) {
          for x in (left + block / 4)..<(left + block * 3 / 4) {
            let index = offset + y * width + x
            largest = max(largest, abs(Int(frame[index]) - Int(picture[index])))
          }
        }
      }
    }
    #expect(largest <= 1, "the video's frame and the still differ by \(largest) codes")
  }

  @Test func eightBitHLGIsToneMappedAndKept() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("hlg8.mp4")
    try VideoClips.make(
      input,
      VideoClips.testSource(size: "160x90", rate: 10, seconds: 0.3)
        + [
          "-c:v", "libx264", "-pix_fmt", "yuv420p", "-color_trc", "arib-std-b67",
          "-color_primaries", "bt2020", "-colorspace", "bt2020nc",
        ])
    let sdr = root.appendingPathComponent("sdr.mp4")
    let mapped = try CLIRunner.run(["video", input.path, "-o", sdr.path, "--hdr", "sdr"])
    #expect(mapped.status == 0, "\(mapped.standardError)")
    #expect(try video(sdr)["color_transfer"] as? String == "bt709")
    let kept = root.appendingPathComponent("kept.mp4")
    let keep = try CLIRunner.run([
      "video", input.path, "-o", kept.path, "--set", "ev=0.3",
    ])
    #expect(keep.status == 0, "\(keep.standardError)")
    let stream = try video(kept)
    #expect(stream["pix_fmt"] as? String == "yuv420p10le")
    #expect(stream["color_transfer"] as? String == "arib-std-b67")
  }

  @Test func frameAtOfHDRIsATonemappedStillAndKeepIsRefusedForIt() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("white.mp4")
    try HDRClips.patch(input, .hlg) { _, _ in HDRClips.codes(red: 0.75, green: 0.75, blue: 0.75) }
    let still = root.appendingPathComponent("still.png")
    let result = try CLIRunner.run(["video", input.path, "--frame-at", "0.1", "-o", still.path])
    #expect(result.status == 0, "\(result.standardError)")
    let pixels = try HDRClips.rgb24(still)
    #expect(pixels.count == 64 * 64 * 3)
    // Full-range reference white, as the SDR video's: about 218 of 255.
    #expect(pixels[(32 * 64 + 32) * 3] >= 205 && pixels[(32 * 64 + 32) * 3] <= 232, "\(pixels[0])")
    // As a HEIC (8-bit, through libheif), the same SDR still.
    let heic = root.appendingPathComponent("still.heic")
    let asHEIC = try CLIRunner.run(["video", input.path, "--frame-at", "0.1", "-o", heic.path])
    #expect(asHEIC.status == 0, "\(asHEIC.standardError)")
    let heicPixels = try Image(contentsOf: heic.path).pixelBytes()
    #expect(heicPixels.count == pixels.count)
    let centre = (32 * 64 + 32) * 3
    for band in 0..<3 where heicPixels.count == pixels.count {
      let difference = abs(Int(heicPixels[centre + band]) - Int(pixels[centre + band]))
      #expect(
        difference <= 3,
        "band \(band): \(heicPixels[centre + band]) against \(pixels[centre + band])")
    }
    // The controls apply before the tone mapping: the still changes.
    let darker = root.appendingPathComponent("darker.png")
    let pushed = try CLIRunner.run([
      "video", input.path, "--frame-at", "0.1", "-o", darker.path, "--set", "ev=-1",
    ])
    #expect(pushed.status == 0, "\(pushed.standardError)")
    #expect(try HDRClips.rgb24(darker)[(32 * 64 + 32) * 3] != pixels[(32 * 64 + 32) * 3])

    let kept = try CLIRunner.run([
      "video", input.path, "--frame-at", "0.1", "--hdr", "keep", "-o",
      root.appendingPathComponent("k.png").path,
    ])
    #expect(kept.status == 2)
    #expect(kept.standardError.contains("--frame-at writes an 8-bit still, which cannot hold HDR"))
  }

  @Test func hdrKeptAsH264AndUnknownHDRModesAreUsageErrors() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("hlg.mp4")
    try HDRClips.moving(input, .hlg, seconds: 0.2)
    let output = root.appendingPathComponent("out.mp4")
    let h264 = try CLIRunner.run(["video", input.path, "--codec", "h264", "-o", output.path])
    #expect(h264.status == 2)
    #expect(
      h264.standardError.contains(
        "HDR output (--hdr keep, the default for HLG input) is HEVC Main 10: 8-bit H.264 cannot "
          + "hold it"), "\(h264.standardError)")
    let bogus = try CLIRunner.run(["video", input.path, "--hdr", "hdr10", "-o", output.path])
    #expect(
      bogus.status == 2 && bogus.standardError.contains("--hdr must be keep or sdr, not 'hdr10'"))
    #expect(!FileManager.default.fileExists(atPath: output.path))
    // Tone-mapped SDR may be H.264.
    let sdr = try CLIRunner.run([
      "video", input.path, "--codec", "h264", "--hdr", "sdr", "-o", output.path,
    ])
    #expect(sdr.status == 0, "\(sdr.standardError)")
    #expect(try video(output)["codec_name"] as? String == "h264")
  }
}
