/// `--output` (`-o`): what a command writes, spelled the same by every command that writes (`apply`,
/// `batch`, `lut`, `preview`, `sweep`, `video`); each says what its output is.
package enum OutputOption {
  /// The option's name, which the checks of arguments that are not UTF-8 treat apart
  /// (``ArgumentBytes``).
  static let name = "output"

  /// The option of a command whose output `valueName` stands for, with `help`.
  package static func option(_ valueName: String, _ help: String) -> ValueOption<String> {
    ValueOption(name, short: "o", valueName, help)
  }
}

extension ParsedArguments {
  /// The single input file and the `--output` value of a one-file command named `command`; the messages
  /// name what is missing (`outputHint` shows the expected output, e.g. "OUT.png").
  package func singleInputAndOutput(command: String, outputHint: String) throws(UsageError) -> (
    input: String, output: String
  ) {
    guard positionals.count == 1, let input = positionals.first else {
      throw UsageError(
        positionals.isEmpty ? "no input file given" : "\(command) takes one input file")
    }
    guard let output = values[OutputOption.name]?.last else {
      throw UsageError("no output given (-o \(outputHint))")
    }
    return (input, output)
  }
}
