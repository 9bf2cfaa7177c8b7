import FrameDialCLI

/// `framedial-full`: every command, `info`, `studio` and `video` with the core ones, and HEIC decoded
/// by FFmpeg's HEVC decoder. The light `framedial` hands it every run that needs it (``FullCommand``).
public enum FullCLI {
  /// Every command, in the order the help lists them.
  package static let commands: [any Command.Type] =
    (CLI.coreCommands + [InfoCommand.self, StudioCommand.self, VideoCommand.self])
    .sorted { $0.name < $1.name }

  /// Runs `framedial-full` with `arguments` (the program name first) and returns the process's exit
  /// code.
  public static func run(_ arguments: [String]) -> Int32 {
    CLI.run(arguments, commands: commands, prepare: HEVCDecoding.useFFmpeg)
  }
}
