import Controls
import Foundation
import FrameDial
import RowKernels
import Vips

#if canImport(Glibc)
  import Glibc
#endif

/// The `framedial` command line: picks the sub-command and turns errors into messages and exit codes.
///
/// Two programs share it. `framedial` (``runOrHandOver(_:)``) links neither FFmpeg nor libsoup, so it
/// starts without loading their libraries: it runs the commands of ``coreCommands`` on the photos it can
/// read without FFmpeg, and hands every other run to `framedial-full` beside it (``FullCommand``),
/// which has every command (`info`, `studio` and `video` too) and decodes HEIC with FFmpeg.
public enum CLI {
  /// The commands that need neither FFmpeg nor libsoup.
  package static let coreCommands: [any Command.Type] = [
    ApplyCommand.self, BatchCommand.self, ControlsCommand.self, DevicesCommand.self,
    ExplainCommand.self, FramesCommand.self, LutCommand.self, PresetsCommand.self,
    PreviewCommand.self, SweepCommand.self,
  ]

  /// The light `framedial`'s run: `arguments` (the program name first) handed over to
  /// `framedial-full` when ``FullCommand/isNeeded(for:)`` says so (this process becomes it), run here
  /// otherwise; returns the process's exit code.
  public static func runOrHandOver(_ arguments: [String]) -> Int32 {
    guard FullCommand.isNeeded(for: arguments) else {
      return run(arguments, commands: coreCommands, prepare: {})
    }
    let failure = FullCommand.become()
    SignalTrap.releaseHeldSignals()
    Console().err("framedial: \(failure)")
    return ExitCode.failure
  }

  /// Runs `framedial` with `arguments` (the program name first) and `commands`, after `prepare` (which
  /// sets up what the commands decode with), and returns the process's exit code. Signals held with
  /// ``holdSignals()`` are released before it returns (or by the command's trap).
  package static func run(
    _ arguments: [String], commands: [any Command.Type], prepare: () -> Void
  ) -> Int32 {
    // A signal still held when the run ends takes its default action.
    defer { SignalTrap.releaseHeldSignals() }
    let console = Console()
    ArgumentBytes.note(arguments)
    let words = Array(arguments.dropFirst())
    // A reader that goes away (`| head`) makes writes fail with EPIPE instead of killing the process,
    // so a command can stop in order and leave no temporary file behind.
    _ = signal(SIGPIPE, SIG_IGN)
    prepare()
    guard let first = words.first else {
      console.errText(overview(commands))
      return ExitCode.usage
    }
    switch first {
    case "--version", "-V":
      console.out(
        "framedial \(FrameDialVersion.string) (libvips \(Vips.libraryVersion), kernels "
          + "\(KernelPath.current))")
      return ExitCode.success
    case "--help", "-h", "help":
      console.outText(overview(commands))
      return ExitCode.success
    default:
      break
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      // Two lines, not the whole help: the mistake (with the nearest command) and where help is.
      let hint = NearestWord.didYouMean(first, among: commands.map { $0.name }, quote: "'")
      console.err("framedial: unknown command '\(first)'.\(hint)")
      console.err("Try 'framedial --help' for the list of commands.")
      return ExitCode.usage
    }
    do {
      let parsed = try command.parser.parse(Array(words.dropFirst()))
      if parsed.helpRequested {
        console.outText(command.help)
        return ExitCode.success
      }
      if !(command is any SignalTrappingCommand.Type) { SignalTrap.releaseHeldSignals() }
      // info and batch report each input of several on its own line; every other path, here.
      try ArgumentBytes.check(parsed, exceptPositionals: command.reportsEachInput)
      try KernelPath.checkEnvironment(ProcessInfo.processInfo.environment)
      let trap =
        command is any ExitingAtOnceCommand.Type
        ? SignalTrap.exitingAtOnce(command: command.name, console: console) : nil
      defer { trap?.cancel() }
      let code = try command.run(parsed, console: console)
      return code == ExitCode.success && console.outputClosed ? ExitCode.outputClosed : code
    } catch let error as UsageError {
      console.err("framedial \(command.name): \(error.message)")
      console.err("usage: framedial \(command.usage)")
      console.err("Try 'framedial \(command.name) --help'.")
      return ExitCode.usage
    } catch {
      console.err("framedial \(command.name): \(ErrorMessage.plain(error))")
      return ExitCode.failure
    }
  }

  /// Holds SIGINT, SIGTERM and SIGHUP until the command run by ``run(_:)`` has installed its trap (or
  /// is one that has none), so that a signal sent as the process starts is not lost: it ends the run
  /// as one sent later does (exit 130, 143 or 129, no output left). Called first of all in the
  /// process, before any thread is started.
  public static func holdSignals() {
    SignalTrap.holdSignals()
  }

  /// The list of `commands` that `framedial` alone and `--help` print.
  static func overview(_ commands: [any Command.Type]) -> String {
    let width = commands.map { $0.name.count }.max() ?? 0
    let list = commands.map {
      "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary
    }
    return """
      usage: framedial COMMAND [OPTIONS] [ARGUMENTS]

      FrameDial applies Camera Control values (exposure, zoom, white balance, contrast, filters)
      to photos and video frames through libvips.

      commands:
      \(list.joined(separator: "\n"))

        framedial --version   print the version
        framedial COMMAND --help   help for one command
      """
  }
}
