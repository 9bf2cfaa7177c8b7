/// One `framedial` sub-command.
package protocol Command: Sendable {
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
  /// True for a command that reports each of several inputs on its own line (`info`, `batch`), so that
  /// a path that is no text is reported with its input, not for the whole run.
  static var reportsEachInput: Bool { get }
}

extension Command {
  package static var reportsEachInput: Bool { false }

  /// The usage line, after "framedial".
  package static var usage: String { synopsis.line(command: name, options: parser.options) }

  /// The full `--help` text.
  package static var help: String {
    "usage: framedial \(usage)\n\n\(summary)\n\noptions:\n\(parser.optionsHelp)"
  }
}

/// A command that catches SIGINT, SIGTERM and SIGHUP with a ``SignalTrap`` installed before it starts
/// any work: the signals, held since the process started, wait for the trap. `batch` and `studio`
/// install their own in `run`; for an ``ExitingAtOnceCommand`` ``CLI`` installs it. The signals of
/// any other command are released before its `run`.
package protocol SignalTrappingCommand: Command {}

/// A command that writes its output synchronously (`apply`, `preview`, `sweep`, `video`): ``CLI`` runs it
/// under ``SignalTrap/exitingAtOnce(command:console:)``, so a signal removes the temporary file, says so
/// and exits at once.
package protocol ExitingAtOnceCommand: SignalTrappingCommand {}

/// Exit codes, as documented in docs/cli/conventions.md.
package enum ExitCode {
  /// Everything done.
  package static let success: Int32 = 0
  /// Some inputs failed (each reported), or the run failed.
  package static let failure: Int32 = 1
  /// The command was called wrongly.
  package static let usage: Int32 = 2
  /// Interrupted by Ctrl-C, after cleaning up.
  package static let interrupted: Int32 = 130
  /// Standard output's reader went away (128 + SIGPIPE, what a shell reports for a process SIGPIPE
  /// ends): the command stopped in order, leaving no temporary file.
  package static let outputClosed: Int32 = 141
}
