import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The `framedial` binary started as a shell starts it: every signal with its default action and none
/// blocked. (Foundation's `Process` passes on the signal mask of the thread that starts it, which in the
/// test runner blocks SIGINT, SIGTERM and SIGHUP among others: a child started that way never sees them.)
final class ShellStartedProcess {
  /// How the process ended.
  enum Ending: Equatable, CustomStringConvertible {
    case exited(Int32)
    case killed(by: Int32)

    var description: String {
      switch self {
      case .exited(let code): "exited with \(code)"
      case .killed(let signal): "killed by signal \(signal)"
      }
    }
  }

  let pid: pid_t
  private var ending: Ending?

  /// Starts `framedial arguments…`: standard input from /dev/null, standard output to `output` (a
  /// descriptor, /dev/null when nil; the child gets no other descriptor of the caller's that is
  /// close-on-exec), standard error to the file at `errors`. With `ignoringInterrupt`, as a script's
  /// `cmd &` starts it: SIGINT ignored (`trap '' INT` in a shell that then runs it in its place).
  init(
    _ arguments: [String], output: Int32? = nil, errors: String, ignoringInterrupt: Bool = false
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let output {
      posix_spawn_file_actions_adddup2(&actions, output, 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let shell = ["/bin/sh", "-c", "trap '' INT; exec \"$0\" \"$@\""]
    let words = (ignoringInterrupt ? shell : []) + [CLIRunner.binary.path] + arguments
    let argv = words.map { strdup($0) } + [nil]
    defer { for word in argv { free(word) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, words[0], &actions, &attributes, argv, environ)
    guard status == 0 else {
      throw CocoaError(
        .executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn: \(status)"])
    }
    self.pid = pid
  }

  /// A pipe whose ends are closed on exec (the child gets only the end it is given as its output).
  static func pipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard Glibc.pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }

  /// True until the process has ended.
  var isRunning: Bool {
    if ending != nil { return false }
    return !reap(options: WNOHANG)
  }

  /// Sends `signal`.
  func send(_ signal: Int32) { kill(pid, signal) }

  /// Waits for the end.
  func wait() -> Ending {
    while ending == nil { _ = reap(options: 0) }
    return ending ?? .exited(-1)
  }

  /// Waits up to `seconds` for the end; nil when the process still runs then.
  func wait(within seconds: Double) -> Ending? {
    let end = Date(timeIntervalSinceNow: seconds)
    while Date() < end {
      if reap(options: WNOHANG) { return ending }
      usleep(50_000)
    }
    return nil
  }

  /// Collects the process's status if it has ended; true then.
  private func reap(options: Int32) -> Bool {
    var status: Int32 = 0
    let result = waitpid(pid, &status, options)
    if result == -1 && errno == ECHILD { ending = .exited(-1) }
    guard result == pid else { return ending != nil }
    let signal = status & 0x7F
    ending = signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(by: signal)
    return true
  }
}
