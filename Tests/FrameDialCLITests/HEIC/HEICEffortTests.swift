import Foundation
import TestSupport
import Testing
import Vips

/// `--effort` and the libheif writer on every command that writes a HEIC: apply, batch, preview, sweep
/// and `video --frame-at`.
@Suite struct HEICEffortTests {
  /// PSNR (dB) of two 8-bit pictures' samples.
  static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    let squares = zip(a, b).reduce(0.0) { sum, pair in
      let difference = Double(pair.0) - Double(pair.1)
      return sum + difference * difference
    }
    return 10 * log10(255 * 255 / max(squares / Double(max(a.count, 1)), 1e-9))
  }

  @Test func batchWritesSmallerHEICsWithMoreEffort() throws {
    let root = try CLIRunner.scratchFolder("effort")
    defer { try? FileManager.default.removeItem(at: root) }
    var sizes: [String: Int] = [:]
    for effort in ["fast", "small"] {
      let output = root.appendingPathComponent(effort)
      let result = try CLIRunner.run([
        "batch", CLIRunner.sample("chelsea.png"), "-o", output.path, "--format", "heic",
        "--effort", effort,
      ])
      #expect(result.status == 0, "\(result.standardError)")
      let written = output.appendingPathComponent("chelsea.heic").path
      sizes[effort] =
        (try? FileManager.default.attributesOfItem(atPath: written)[.size] as? Int) ?? 0
    }
    let fast = try #require(sizes["fast"])
    let small = try #require(sizes["small"])
    // At the same --quality, fast's adaptive quantisation spends a little more on a better picture,
    // and slow still writes fewer bytes (HEICOutputTests compares them at equal quality).
    #expect(small > 10_000 && fast > small + small / 25, "\(sizes)")
  }

  /// preview, sweep and `video --frame-at` write a HEIC through libheif at x265 `ultrafast` (16 × 16
  /// units at the smallest, no sign hiding, no SAO; libvips's heifsave codes `slow`'s 8 × 8 units with
  /// both), the picture their PNG holds; `--effort` reaches the encoder of each.
  @Test func previewSweepAndFrameStillsAreWrittenByLibheifAtTheirEffort() throws {
    let root = try CLIRunner.scratchFolder("effort-outputs")
    defer { try? FileManager.default.removeItem(at: root) }
    let clip = root.appendingPathComponent("clip.mp4")
    try VideoClips.make(
      clip,
      VideoClips.testSource(size: "320x180", rate: 10, seconds: 0.5)
        + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
    let photo = CLIRunner.sample("rocket.jpg")
    let commands: [(name: String, arguments: (String) -> [String])] = [
      ("preview", { ["preview", photo, "-o", $0, "--set", "ev=0.3"] }),
      ("sweep", { ["sweep", photo, "-o", $0, "--control", "ev", "--values", "0,0.5,1"] }),
      (
        "frame", { ["video", clip.path, "--frame-at", "0.2", "-o", $0, "--set", "saturation=1.4"] }
      ),
    ]
    let fast = HEVCCodingSettings(
      treeSize: 64, smallestUnit: 16, signHiding: false, sampleAdaptiveOffset: false)
    let balanced = HEVCCodingSettings(
      treeSize: 64, smallestUnit: 8, signHiding: true, sampleAdaptiveOffset: true)
    for command in commands {
      let png = root.appendingPathComponent("\(command.name).png")
      let heic = root.appendingPathComponent("\(command.name).heic")
      for output in [png, heic] {
        let result = try CLIRunner.run(command.arguments(output.path))
        #expect(result.status == 0, "\(command.name): \(result.standardError)")
      }
      #expect(try HEVCCodingSettings(heic: heic) == fast, "\(command.name)")
      let reference = try Image(contentsOf: png.path)
      let written = try Image(contentsOf: heic.path)
      #expect(
        written.width == reference.width && written.height == reference.height
          && written.bands == 3, "\(command.name): \(written.width)×\(written.height)")
      let quality = Self.psnr(try written.pixelBytes(), try reference.pixelBytes())
      #expect(quality > 30, "\(command.name): PSNR \(quality) dB against the PNG")

      let harder = root.appendingPathComponent("\(command.name)-balanced.heic")
      let result = try CLIRunner.run(command.arguments(harder.path) + ["--effort", "balanced"])
      #expect(result.status == 0, "\(command.name): \(result.standardError)")
      #expect(try HEVCCodingSettings(heic: harder) == balanced, "\(command.name)")
    }
    #expect(try Image(contentsOf: root.appendingPathComponent("preview.heic").path).width == 1206)
    // The same picture at `--effort small`: x265 slow's settings (libvips's heifsave's), which the
    // check tells apart.
    let small = root.appendingPathComponent("small.heic")
    let smallRun = try CLIRunner.run(
      [
        "apply", root.appendingPathComponent("frame.png").path, "-o", small.path, "--effort",
        "small",
      ])
    #expect(smallRun.status == 0, "\(smallRun.standardError)")
    let slow = try HEVCCodingSettings(heic: small)
    #expect(slow.smallestUnit == 8 && slow.signHiding && slow != fast, "\(slow)")
  }

  @Test func anUnknownEffortIsAUsageError() throws {
    let root = try CLIRunner.scratchFolder("effort-bad")
    defer { try? FileManager.default.removeItem(at: root) }
    let output = root.appendingPathComponent("out.heic").path
    let result = try CLIRunner.run([
      "apply", CLIRunner.sample("chelsea.png"), "-o", output, "--effort", "slowest",
    ])
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "framedial apply: --effort must be one of fast, balanced, small, not 'slowest'"),
      "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output))
    for command in ["apply", "batch", "preview", "sweep", "video"] {
      let help = try CLIRunner.run([command, "--help"])
      #expect(help.standardOutput.contains("--effort EFFORT"), "\(command)")
      #expect(
        help.standardOutput.contains("fast (default: x265 ultrafast with adaptive quantisation"),
        "\(command)")
    }
  }

  @Test func effortOnAVideoOutputIsAUsageError() throws {
    let root = try CLIRunner.scratchFolder("effort-video")
    defer { try? FileManager.default.removeItem(at: root) }
    let clip = root.appendingPathComponent("clip.mp4")
    try VideoClips.make(
      clip,
      VideoClips.testSource(size: "64x64", rate: 10, seconds: 0.2)
        + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
    let output = root.appendingPathComponent("out.mp4").path
    let result = try CLIRunner.run(["video", clip.path, "-o", output, "--effort", "small"])
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "framedial video: --effort sets the encoder of a --frame-at HEIC still; a video's is "
          + "--encoder-preset"), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
