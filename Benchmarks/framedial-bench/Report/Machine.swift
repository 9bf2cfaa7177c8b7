import Foundation
import RowKernels
import Vips

/// The machine a run measured, for the report's header.
struct Machine: Sendable, Codable {
  /// The CPU model from /proc/cpuinfo.
  var cpuModel: String
  /// Processors available to this process.
  var cores: Int
  /// The libvips version.
  var libvipsVersion: String
  /// The kernel release.
  var kernel: String
  /// When the run started, ISO 8601 in UTC.
  var date: String
  /// The 1-, 5- and 15-minute load averages when the run started (from /proc/loadavg).
  var loadAverage: String
  /// The kernels' code path the run took ("avx512", "avx2" or "scalar"; nil in runs before it was
  /// recorded): machines that share a CPU name may differ in it, and the HDR kernels' speed with it.
  var kernelPath: String?

  /// The machine this process runs on.
  static func current() -> Machine {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n")
      .first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let kernel =
      (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    let load =
      (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
      .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
    return Machine(
      cpuModel: model, cores: ProcessInfo.processInfo.activeProcessorCount,
      libvipsVersion: Vips.libraryVersion, kernel: kernel,
      date: ISO8601DateFormatter().string(from: Date()), loadAverage: load,
      kernelPath: KernelPath.current.description)
  }
}
