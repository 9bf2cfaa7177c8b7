import Foundation
import RowKernels
import TestSupport
import Testing

/// `FRAMEDIAL_SIMD` as a user sets it: it limits the kernels' code path (which `--version` names), and
/// a value that is not a path's name is refused before the command runs.
@Suite struct KernelPathEnvironmentTests {
  /// `framedial arguments…` with `FRAMEDIAL_SIMD=value`.
  func run(simd value: String, _ arguments: [String]) throws -> CLIRunner.Result {
    try CLIRunner.run(
      ["FRAMEDIAL_SIMD=\(value)", CLIRunner.binary.path] + arguments,
      executable: URL(fileURLWithPath: "/usr/bin/env"))
  }

  @Test func theVariableLimitsThePath() throws {
    for path in KernelPath.available {
      let version = try run(simd: path.description, ["--version"])
      #expect(version.status == 0)
      #expect(version.standardOutput.hasSuffix("kernels \(path))\n"), "\(path)")
    }
  }

  @Test func aWrongValueIsRefused() throws {
    let result = try run(simd: "sse4", ["presets"])
    #expect(result.status == 1)
    #expect(
      result.standardError.hasPrefix(
        "framedial presets: FRAMEDIAL_SIMD is \"sse4\"; it must be scalar, avx2 or avx512"))
    #expect(result.standardOutput.isEmpty)
  }
}
