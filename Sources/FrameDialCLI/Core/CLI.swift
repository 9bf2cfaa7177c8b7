import Controls
import Foundation
import FrameDial
import RowKernels
import Vips

#if canImport(Glibc)
  import Glibc
#endif

/// The `framedial` command line: picks the sub-command and turns errors into messages and exit codes.
public enum CLI {
  static let commands: [any Command.Type] = [
    ApplyCommand.self, BatchCommand.self, ControlsCommand.self, DevicesCommand.self,
    ExplainCommand.self, FramesCommand.self, InfoCommand.self, LutCommand.self, PresetsCommand.self,
    PreviewCommand.self, StudioCommand.self, SweepCommand.self, VideoCommand.self,
  ]

  /// Runs `framedial` with `arguments` (the program name first) and returns the process's exit code.
  /// Signals held with ``holdSignals()`` are released before it returns (or by the command's trap).
  public static func run(_ arguments: [String]) -> Int32 {
    // A signal still held when the run ends takes its default action.
    defer { SignalTrap.releaseHeldSignals() }
    let console = Console()
    ArgumentBytes.note(arguments)
    let words = Array(arguments.dropFirst())
    // A reader that goes away (`| head`) makes writes fail with EPIPE instead of killing the process,
    // so a command can stop in order and leave no temporary file behind.
    _ = signal(SIGPIPE, SIG_IGN)
    HEVCDecoding.useFFmpeg()
    guard let first = words.first else {
      console.errText(overview)
      return ExitCode.usage
    }
    switch first {
    case "--version", "-V":
      console.out(
        "framedial \(FrameDialVersion.string) (libvips \(Vips.libraryVersion), kernels "
          + "\(KernelPath.current))")
      return ExitCode.success
    case "--help", "-h", "help":
      console.outText(overview)
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
      try ArgumentBytes.check(
        parsed, exceptPositionals: [InfoCommand.name, BatchCommand.name].contains(command.name))
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

  static var overview: String {
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
