/// One `framedial` sub-command.
protocol Command: Sendable {
  /// The word that selects the command.
  static var name: String { get }
  /// One line for the command list.
  static var summary: String { get }
  /// How the command is called: its arguments and options in the order its usage line shows them
  /// (every option it accepts is shown; see ``Usage``).
  static var synopsis: Usage { get }
  /// The options the command accepts, in the order its help lists them.
  static var parser: ArgumentParser { get }
  /// Runs the command and returns its exit code.
  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32
}

extension Command {
  /// The usage line, after "framedial".
  static var usage: String { synopsis.line(command: name, options: parser.options) }

  /// The full `--help` text.
  static var help: String {
    "usage: framedial \(usage)\n\n\(summary)\n\noptions:\n\(parser.optionsHelp)"
  }
}

/// A command that catches SIGINT, SIGTERM and SIGHUP with a ``SignalTrap`` installed before it starts
/// any work: the signals, held since the process started, wait for the trap. `batch` and `studio`
/// install their own in `run`; for an ``ExitingAtOnceCommand`` ``CLI`` installs it. The signals of
/// any other command are released before its `run`.
protocol SignalTrappingCommand: Command {}

/// A command that writes its output synchronously (`apply`, `preview`, `sweep`, `video`): ``CLI`` runs it
/// under ``SignalTrap/exitingAtOnce(command:console:)``, so a signal removes the temporary file, says so
/// and exits at once.
protocol ExitingAtOnceCommand: SignalTrappingCommand {}

/// Exit codes, as documented in docs/cli/conventions.md.
enum ExitCode {
  /// Everything done.
  static let success: Int32 = 0
  /// Some inputs failed (each reported), or the run failed.
  static let failure: Int32 = 1
  /// The command was called wrongly.
  static let usage: Int32 = 2
  /// Interrupted by Ctrl-C, after cleaning up.
  static let interrupted: Int32 = 130
  /// Standard output's reader went away (128 + SIGPIPE, what a shell reports for a process SIGPIPE
  /// ends): the command stopped in order, leaving no temporary file.
  static let outputClosed: Int32 = 141
}
