import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial` run to its end with every signal at its default, and what the kernel says of it: how it
/// ended and its peak resident memory (`ru_maxrss` of this child alone).
struct MeasuredRun {
  /// How it ended.
  var ending: ShellStartedProcess.Ending
  /// What it wrote to standard error.
  var errors: String
  /// Its peak resident memory, in megabytes.
  var peakMegabytes: Double

  /// Runs `framedial arguments…` (standard input and output on /dev/null) and waits for its end.
  init(_ arguments: [String]) throws {
    let errorsFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-measured-\(UUID().uuidString).err")
    defer { try? FileManager.default.removeItem(at: errorsFile) }
    let process = try ShellStartedProcess(arguments, errors: errorsFile.path)
    var status: Int32 = 0
    var usage = rusage()
    while wait4(process.pid, &status, 0, &usage) == -1 && errno == EINTR {}
    let signal = status & 0x7F
    ending = signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(by: signal)
    errors = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
    // Linux gives ru_maxrss in kilobytes.
    peakMegabytes = Double(usage.ru_maxrss) / 1024
  }
}
