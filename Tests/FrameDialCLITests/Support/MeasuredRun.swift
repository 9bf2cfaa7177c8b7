import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial` run to its end with every signal at its default, how it ended, and its peak resident
/// memory as its own `VmHWM` shows it while it runs. (Not `ru_maxrss`: Linux carries the spawning
/// process's peak over into the child's, so the test runner's own memory would be counted.)
struct MeasuredRun {
  /// How it ended.
  var ending: ShellStartedProcess.Ending
  /// What it wrote to standard error.
  var errors: String
  /// Its peak resident memory, in megabytes, as last seen before it ended.
  var peakMegabytes: Double

  /// Runs `framedial arguments…` (standard input and output on /dev/null), reading its peak resident
  /// memory every 0.2 ms until it ends.
  init(_ arguments: [String]) throws {
    let errorsFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-measured-\(UUID().uuidString).err")
    defer { try? FileManager.default.removeItem(at: errorsFile) }
    let process = try ShellStartedProcess(arguments, errors: errorsFile.path)
    var peakKilobytes = 0
    while process.isRunning {
      peakKilobytes = max(peakKilobytes, Self.highWaterKilobytes(of: process.pid) ?? 0)
      usleep(200)
    }
    ending = process.wait()
    errors = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
    peakMegabytes = Double(peakKilobytes) / 1024
  }

  /// The `VmHWM` line of /proc/PID/status in kilobytes (the peak resident set of the program the
  /// process runs now), nil once it has ended.
  static func highWaterKilobytes(of pid: pid_t) -> Int? {
    let descriptor = open("/proc/\(pid)/status", O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(descriptor, &buffer, buffer.count)
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[0..<count], as: UTF8.self)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else {
      return nil
    }
    return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
  }
}
