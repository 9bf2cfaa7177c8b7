import Controls

/// FrameDial's own GNU-style argument parser: `--name value`, `--name=value`, `-n value`, bundled short
/// flags (`-qv`), `--` ends options, and `--help` / `-h` on every command.
package struct ArgumentParser {
  /// One option a command accepts.
  package struct Option: Sendable {
    /// The long name, without dashes.
    package var name: String
    /// The one-letter short name, if any.
    package var short: Character?
    /// The value's placeholder in help (`nil` for a flag that takes no value).
    package var valueName: String?
    /// One line of help.
    package var help: String
    /// True when the option may be given more than once (values accumulate).
    package var repeatable = false

    /// A flag: no value.
    package static func flag(_ name: String, short: Character? = nil, _ help: String) -> Option {
      Option(name: name, short: short, valueName: nil, help: help)
    }

    /// An option that takes a value.
    package static func value(
      _ name: String, short: Character? = nil, _ valueName: String, _ help: String,
      repeatable: Bool = false
    ) -> Option {
      Option(name: name, short: short, valueName: valueName, help: help, repeatable: repeatable)
    }
  }

  /// The options this command accepts (`--help` is always accepted too).
  package var options: [Option]

  /// Creates a parser for `options`.
  package init(options: [Option]) {
    self.options = options
  }

  /// Splits `arguments` (without the program and command names) into options and positionals.
  package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
      } else if argument == "--" {
        optionsEnded = true
      } else if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let name: String
        var inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
          name = String(body[..<equals])
          inlineValue = String(body[body.index(after: equals)...])
        } else {
          name = String(body)
        }
        if name == "help" {
          parsed.helpRequested = true
          continue
        }
        guard let option = options.first(where: { $0.name == name }) else {
          let nearest = NearestWord.suggestion(for: name, among: options.map(\.name) + ["help"])
          throw UsageError(
            "unknown option --\(name)" + (nearest.map { "; did you mean --\($0)?" } ?? ""))
        }
        try take(
          option, inlineValue: inlineValue, spelled: "--\(name)", arguments, &index, into: &parsed)
      } else {
        var letters = Array(argument.dropFirst())
        while !letters.isEmpty {
          let letter = letters.removeFirst()
          if letter == "h" {
            parsed.helpRequested = true
            continue
          }
          guard let option = options.first(where: { $0.short == letter }) else {
            throw UsageError("unknown option -\(letter)")
          }
          if option.valueName != nil {
            let rest = letters.isEmpty ? nil : String(letters)
            letters = []
            try take(
              option, inlineValue: rest, spelled: "-\(letter)", arguments, &index, into: &parsed)
          } else {
            try take(
              option, inlineValue: nil, spelled: "-\(letter)", arguments, &index, into: &parsed)
          }
        }
      }
    }
    return parsed
  }

  private func take(
    _ option: Option, inlineValue: String?, spelled: String, _ arguments: [String],
    _ index: inout Int,
    into parsed: inout ParsedArguments
  ) throws(UsageError) {
    guard option.valueName != nil else {
      if inlineValue != nil { throw UsageError("option \(spelled) takes no value") }
      parsed.flags.insert(option.name)
      return
    }
    let value: String
    if let inlineValue {
      value = inlineValue
    } else {
      guard index < arguments.count else { throw UsageError("option \(spelled) needs a value") }
      value = arguments[index]
      index += 1
    }
    if !option.repeatable, parsed.values[option.name] != nil {
      throw UsageError("option \(spelled) is given more than once")
    }
    parsed.values[option.name, default: []].append(value)
  }

  /// The options' help lines, aligned.
  package var optionsHelp: String {
    let rows =
      options.map { option -> (String, String) in
        var spelling = option.short.map { "-\($0), " } ?? "    "
        spelling += "--\(option.name)"
        if let valueName = option.valueName { spelling += " \(valueName)" }
        return (spelling, option.help)
      } + [("-h, --help", "show this help")]
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
      .joined(separator: "\n")
  }
}

/// What ``ArgumentParser`` found.
package struct ParsedArguments: Sendable, Equatable {
  /// Values of options that take one, in the order given.
  package var values: [String: [String]] = [:]
  /// Flags that were given.
  package var flags: Set<String> = []
  /// Arguments that are not options.
  package var positionals: [String] = []
  /// True when `--help` or `-h` was given.
  package var helpRequested = false

  /// Nothing parsed yet.
  package init() {}

  /// True when the flag `name` was given.
  package func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The last value of option `name`.
  package func value(_ name: String) -> String? { values[name]?.last }

  /// The single input file and the `--output` value of a one-file command named `command`; the messages
  /// name what is missing (`outputHint` shows the expected output, e.g. "OUT.png").
  package func singleInputAndOutput(command: String, outputHint: String) throws(UsageError) -> (
    input: String, output: String
  ) {
    guard positionals.count == 1, let input = positionals.first else {
      throw UsageError(
        positionals.isEmpty ? "no input file given" : "\(command) takes one input file")
    }
    guard let output = value("output") else {
      throw UsageError("no output given (-o \(outputHint))")
    }
    return (input, output)
  }

  /// The integer value of option `name`, checked against `range`.
  package func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        "--\(name) must be a whole number \(range.lowerBound) … \(range.upperBound), not '\(text)'")
    }
    return number
  }
}

/// A mistake in how a command was called: exit code 2, with a usage hint.
package struct UsageError: Error, CustomStringConvertible, Equatable {
  /// What was wrong.
  package let message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}
