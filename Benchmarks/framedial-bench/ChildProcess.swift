import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Child processes started with `posix_spawn` and reaped with `wait4`, so each one's own resource usage
/// (peak resident memory) is known.
enum ChildProcess {
  /// How a child ended.
  struct Exit: Sendable {
    /// The process id.
    var pid: pid_t
    /// The exit code, or 128 + the signal number when a signal ended it.
    var code: Int32
    /// The child's peak resident set size in bytes (`ru_maxrss`).
    var peakResidentBytes: Int
  }

  /// Starts `executable` with `arguments` (without the program name); standard output goes to
  /// /dev/null, and standard error too when `quiet`, else it is inherited.
  static func spawn(_ executable: String, _ arguments: [String], quiet: Bool = false) throws
    -> pid_t
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
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

  /// Waits for the child `pid` (or any child, for -1) and returns how it ended.
  static func wait(for pid: pid_t = -1) throws -> Exit {
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
    return Exit(pid: reaped, code: code, peakResidentBytes: usage.ru_maxrss * 1024)
  }

  /// Runs `executable` to completion.
  static func run(_ executable: String, _ arguments: [String], quiet: Bool = false) throws -> Exit {
    try wait(for: try spawn(executable, arguments, quiet: quiet))
  }
}

/// A child process could not be started or waited for.
struct ChildProcessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
