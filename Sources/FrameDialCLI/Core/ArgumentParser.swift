import Controls

/// FrameDial's own GNU-style argument parser: `--name value`, `--name=value`, `-n value`, bundled short
/// flags (`-qv`), `--` ends options, and `--help` / `-h` on every command. The options are declared
/// once, as ``FlagOption`` and ``ValueOption``; ``ParsedArguments`` reads them back typed.
package struct ArgumentParser: Sendable {
  /// How one option is spelled and shown: what the parser and the help need of a declaration.
  package struct Option: Sendable {
    /// The long name, without dashes.
    package var name: String
    /// The one-letter short name, if any.
    package var short: Character?
    /// The value's placeholder in help (`nil` for a flag that takes no value).
    package var valueName: String?
    /// The value's placeholder in usage lines (`E` for `--effort EFFORT`); `valueName` when nil.
    package var usageValueName: String?
    /// One line of help.
    package var help: String
    /// True when the option may be given more than once (values accumulate).
    package var repeatable = false

    /// `--name`, as messages and usage lines spell it.
    package var spelled: String { "--\(name)" }
  }

  /// The declarations of the options this command accepts (`--help` is always accepted too), in the
  /// order help lists them.
  package let declarations: [any CommandOption]

  /// How the options are spelled and shown, in the order help lists them.
  package var options: [Option] { declarations.map(\.spec) }

  /// Creates a parser for `options`, in the order help lists them.
  package init(options: [any CommandOption]) {
    declarations = options
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
        spelling += option.spelled
        if let valueName = option.valueName { spelling += " \(valueName)" }
        return (spelling, option.help)
      } + [("-h, --help", "show this help")]
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
      .joined(separator: "\n")
  }
}

/// What ``ArgumentParser`` found; its options are read back through their declarations
/// (`arguments[PixelLimitOption.option]`), each value checked as it is read.
package struct ParsedArguments: Sendable, Equatable {
  /// Values of options that take one, in the order given, by option name.
  package var values: [String: [String]] = [:]
  /// The names of the flags that were given.
  package var flags: Set<String> = []
  /// Arguments that are not options.
  package var positionals: [String] = []
  /// True when `--help` or `-h` was given.
  package var helpRequested = false

  /// Nothing parsed yet.
  package init() {}

  /// True when `flag` was given.
  package subscript(flag: FlagOption) -> Bool { flags.contains(flag.spec.name) }

  /// The last value of `option`, read; nil when it was not given.
  ///
  /// - Throws: `UsageError` from the option's reader, naming the option and the value.
  package subscript<Value>(option: ValueOption<Value>) -> Value? {
    get throws(UsageError) {
      guard let text = text(option) else { return nil }
      return try option.read(text)
    }
  }

  /// Every value of a repeatable `option`, read, in the order given.
  ///
  /// - Throws: `UsageError` from the option's reader for the first value it refuses.
  package func all<Value>(_ option: ValueOption<Value>) throws(UsageError) -> [Value] {
    var read: [Value] = []
    for text in values[option.spec.name] ?? [] { read.append(try option.read(text)) }
    return read
  }

  /// The last value of `option` as it was given, unread; nil when it was not given.
  package func text<Value>(_ option: ValueOption<Value>) -> String? {
    values[option.spec.name]?.last
  }

  /// True when `option` (a flag, or an option with a value) was given.
  package func given(_ option: some CommandOption) -> Bool {
    values[option.spec.name] != nil || flags.contains(option.spec.name)
  }
}

/// A mistake in how a command was called: exit code 2, with a usage hint.
package struct UsageError: Error, CustomStringConvertible, Equatable {
  /// What was wrong.
  package let message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}
