import Foundation
import Measurement

#if canImport(Glibc)
  import Glibc
#endif

/// Child processes started with `posix_spawn` and reaped with `wait4`, so each one's own resource usage
/// (peak resident memory, CPU time) is known.
enum ChildProcess {
  /// How a child ended.
  struct Exit: Sendable {
    /// The process id.
    var pid: pid_t
    /// The exit code, or 128 + the signal number when a signal ended it.
    var code: Int32
    /// The child's peak resident set size in bytes (`ru_maxrss`).
    var peakResidentBytes: Int
    /// The CPU seconds the child and the children it waited for used, user and system
    /// (`ru_utime` + `ru_stime`): the work done, however busy the machine was.
    var cpuSeconds: Double
    /// Wall-clock seconds from start to exit, when measured.
    var seconds: Double?
  }

  /// Starts `executable` with `arguments` (without the program name); standard output goes to
  /// /dev/null, standard error is inherited.
  private static func spawn(_ executable: String, _ arguments: [String]) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) }
    defer {
      for argument in argv { free(argument) }
    }
    var pid: pid_t = 0
    let status = (argv + [nil]).withUnsafeBufferPointer { pointers -> Int32 in
      guard let arguments = pointers.baseAddress else { return EINVAL }
      return posix_spawn(&pid, executable, &actions, nil, arguments, environ)
    }
    guard status == 0 else {
      throw ChildProcessError("cannot start \(executable): \(String(cString: strerror(status)))")
    }
    return pid
  }

  /// Waits for the child `pid` and returns how it ended.
  private static func wait(for pid: pid_t) throws -> Exit {
    var status: Int32 = 0
    var usage = rusage()
    var reaped: pid_t
    repeat {
      reaped = wait4(pid, &status, 0, &usage)
    } while reaped < 0 && errno == EINTR
    guard reaped > 0 else {
      throw ChildProcessError("waiting for a child failed: \(String(cString: strerror(errno)))")
    }
    let signal = status & 0x7f
    let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
    // Linux reports ru_maxrss in kilobytes.
    return Exit(
      pid: reaped, code: code, peakResidentBytes: usage.ru_maxrss * 1024,
      cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), seconds: nil)
  }

  /// `time` in seconds.
  private static func seconds(_ time: timeval) -> Double {
    Double(time.tv_sec) + Double(time.tv_usec) / 1e6
  }

  /// `text` in single quotes for `/bin/sh`.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// The path of libvips's command-line tool `name` (`vips`, `vipsthumbnail`), found on the PATH.
  static func libvipsTool(_ name: String) throws -> String {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
      return "\(folder)/\(name)"
    }
    throw ChildProcessError("\(name) (libvips's command-line tools) is not on the PATH")
  }

  /// Runs `executable` to completion.
  static func run(_ executable: String, _ arguments: [String]) throws -> Exit {
    try wait(for: try spawn(executable, arguments))
  }

  /// The first argument that makes this benchmark a launcher (see ``runMeasuringPeak(_:_:)``).
  static let launcherFlag = "--launch-measuring-peak"

  /// Runs `executable` to completion through a launcher: a fresh copy of this benchmark that starts the
  /// child and reports how it ended.
  ///
  /// A child started from this process directly would report this process's own peak resident memory
  /// (the frame rings) when it is larger than its own: `posix_spawn` starts the child in the parent's
  /// address space, and Linux folds that space's high-water mark into the child's `ru_maxrss` when the
  /// child calls `exec`. The launcher is small, so the peak it reports is the child's.
  static func runMeasuringPeak(_ executable: String, _ arguments: [String]) throws -> Exit {
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let report = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-exit-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: report) }
    let launcher = try run(me, [launcherFlag, report.path, executable] + arguments)
    let fields = ((try? String(contentsOf: report, encoding: .utf8)) ?? "")
      .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    guard launcher.code == 0, fields.count == 4, let code = Int32(fields[0]),
      let peak = Int(fields[1]), let seconds = Double(fields[2]), let cpu = Double(fields[3])
    else {
      throw ChildProcessError("the launcher for \(executable) failed (exit \(launcher.code))")
    }
    return Exit(
      pid: launcher.pid, code: code, peakResidentBytes: peak, cpuSeconds: cpu, seconds: seconds)
  }

  /// The launcher's work: `arguments` are the report file, the executable and its arguments. Runs the
  /// child and writes its exit code, peak resident bytes, wall seconds and CPU seconds to the report
  /// file; returns 0 when it could.
  static func launch(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 2 else { return 2 }
    do {
      var exit: Exit?
      let seconds = try Timing.measure {
        exit = try run(arguments[1], Array(arguments.dropFirst(2)))
      }
      guard let exit else { return 1 }
      try "\(exit.code) \(exit.peakResidentBytes) \(seconds) \(exit.cpuSeconds)\n".write(
        toFile: arguments[0], atomically: true, encoding: .utf8)
      return 0
    } catch {
      return 1
    }
  }
}

/// A child process could not be started or waited for.
struct ChildProcessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
