/// A command that takes no arguments and prints a catalogue (`presets`, `devices`): as text, or as JSON
/// with its `--json` flag.
protocol ListingCommand: Command {
  /// `--json`, with what the JSON holds as its help.
  static var json: FlagOption { get }
  /// Prints the catalogue as JSON.
  static func printJSON(console: Console) throws
  /// Prints the catalogue as text.
  static func printText(console: Console) throws
}

extension ListingCommand {
  static var synopsis: Usage { Usage([]) }
  static var parser: ArgumentParser { ArgumentParser(options: [json]) }

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else { throw UsageError("\(name) takes no arguments") }
    if arguments[json] {
      try printJSON(console: console)
    } else {
      try printText(console: console)
    }
    return ExitCode.success
  }
}
