import Foundation
import Testing

/// `--effort` on apply and batch: x265's preset for HEIC outputs.
@Suite struct HEICEffortTests {
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
    for command in ["apply", "batch"] {
      let help = try CLIRunner.run([command, "--help"])
      #expect(help.standardOutput.contains("--effort EFFORT"), "\(command)")
      #expect(
        help.standardOutput.contains("fast (default: x265 ultrafast with adaptive quantisation"),
        "\(command)")
    }
  }
}
