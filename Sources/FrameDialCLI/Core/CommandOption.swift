import Controls

/// An option a command accepts, declared once (``FlagOption``, ``ValueOption``): its spelling and help
/// for the parser, the help and the usage line, and, for an option with a value, how the value is read.
/// Its description is its spelling, `--name`, for messages that name it.
package protocol CommandOption: Sendable, CustomStringConvertible {
  /// How the option is spelled and shown.
  var spec: ArgumentParser.Option { get }
}

extension CommandOption {
  /// `--name`.
  package var description: String { spec.spelled }
}

/// An option without a value: given or not (`--strip`, `-y`).
package struct FlagOption: CommandOption {
  package var spec: ArgumentParser.Option

  /// The flag `--name` (and `-short`), with one line of help.
  package init(_ name: String, short: Character? = nil, _ help: String) {
    spec = ArgumentParser.Option(name: name, short: short, valueName: nil, help: help)
  }

  /// The same flag with other help, for a command that says more or other of it.
  package func help(_ text: String) -> FlagOption {
    var copy = self
    copy.spec.help = text
    return copy
  }
}

/// An option with a value, read as `Value` when a command asks for it, so its mistakes are reported in
/// the order the command reads its options.
package struct ValueOption<Value>: CommandOption {
  package var spec: ArgumentParser.Option
  private let reader: @Sendable (_ text: String, _ option: String) throws(UsageError) -> Value

  /// The option `--name VALUE` (and `-short`): `valueName` is the value's placeholder in help, `usage`
  /// a shorter one for usage lines; `read` turns the text given into the value, throwing a message
  /// that names the option (given as `option`, `--name`) and the text.
  package init(
    _ name: String, short: Character? = nil, _ valueName: String, usage: String? = nil,
    _ help: String, repeatable: Bool = false,
    read: @escaping @Sendable (_ text: String, _ option: String) throws(UsageError) -> Value
  ) {
    spec = ArgumentParser.Option(
      name: name, short: short, valueName: valueName, usageValueName: usage, help: help,
      repeatable: repeatable)
    reader = read
  }

  /// The value `text` stands for.
  ///
  /// - Throws: `UsageError` naming the option and `text` when it is not a value of the option.
  package func read(_ text: String) throws(UsageError) -> Value {
    try reader(text, spec.spelled)
  }

  /// The same option with other help, for a command that says more or other of it.
  package func help(_ text: String) -> ValueOption {
    var copy = self
    copy.spec.help = text
    return copy
  }
}

extension ValueOption where Value == String {
  /// An option whose value is used as it is given (a path, a name the command looks up).
  package init(
    _ name: String, short: Character? = nil, _ valueName: String, usage: String? = nil,
    _ help: String, repeatable: Bool = false
  ) {
    self.init(
      name, short: short, valueName, usage: usage, help, repeatable: repeatable,
      read: { text, _ in text })
  }
}

extension ValueOption where Value == Int {
  /// An option whose value is a whole number in `range`: `--quality must be a whole number 1 … 100,
  /// not 'x'` otherwise.
  package static func wholeNumber(
    _ name: String, short: Character? = nil, _ valueName: String, _ help: String,
    in range: ClosedRange<Int>
  ) -> ValueOption {
    ValueOption(name, short: short, valueName, help) { text, option throws(UsageError) in
      guard let number = Int(text), range.contains(number) else {
        throw UsageError(
          "\(option) must be a whole number \(range.lowerBound) … \(range.upperBound), not '\(text)'"
        )
      }
      return number
    }
  }
}

/// How a ``ValueOption`` of a list of names refuses a name not in it.
package enum ChoiceMessage: Sendable {
  /// `--effort must be one of fast, balanced, small, not 'fsat'; did you mean 'fast'?`
  case oneOf
  /// `--codec must be h264 or hevc, not 'hecv'; did you mean 'hevc'?`
  case either
  /// `--transfer must be bt709, hlg, pq, not 'bt2021'`
  case list
  /// `--fail-on: unknown level 'warnings'; did you mean 'warning'? levels: none, …`, the lookups'
  /// style (``NearestWord/unknown(_:_:among:known:)``), with the word for one name.
  case unknown(String)

  /// The message for `text`, given to `option`, which takes `names`; the nearest name is suggested
  /// where one is close (`…, not 'fsat'; did you mean 'fast'?`).
  func text(_ text: String, option: String, names: [String]) -> String {
    let hint =
      NearestWord.suggestion(for: text, among: names).map { "; did you mean '\($0)'?" } ?? ""
    switch self {
    case .oneOf:
      return "\(option) must be one of \(names.joined(separator: ", ")), not '\(text)'\(hint)"
    case .either:
      return "\(option) must be \(Self.either(names)), not '\(text)'\(hint)"
    case .list:
      return "\(option) must be \(names.joined(separator: ", ")), not '\(text)'\(hint)"
    case .unknown(let word):
      return "\(option): "
        + NearestWord.unknown(
          word, text, among: names, known: "\(word)s: \(names.joined(separator: ", "))")
    }
  }

  /// `a or b`, `a, b or c`.
  static func either(_ names: [String]) -> String {
    guard let last = names.last, names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " or " + last
  }
}

extension ValueOption {
  /// An option whose value is one of `names`, read by `lookup` (nil for a text that names none); the
  /// help's placeholder is the names (`a|b|c`) unless `value` gives one.
  package static func choice(
    _ name: String, short: Character? = nil, value valueName: String? = nil, usage: String? = nil,
    names: [String], _ help: String, message: ChoiceMessage,
    lookup: @escaping @Sendable (String) -> Value?
  ) -> ValueOption {
    ValueOption(name, short: short, valueName ?? names.joined(separator: "|"), usage: usage, help) {
      text, option throws(UsageError) in
      guard let value = lookup(text) else {
        throw UsageError(message.text(text, option: option, names: names))
      }
      return value
    }
  }
}

extension ValueOption
where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
  /// The names of the option's values, in their declared order.
  package static var names: [String] { Value.allCases.map(\.rawValue) }

  /// An option whose value is one of the enum's cases, named in any letter case; the names come from
  /// the enum (`CaseIterable`), in its order.
  package static func choice(
    _ name: String, short: Character? = nil, value valueName: String? = nil, usage: String? = nil,
    _ help: String, message: ChoiceMessage
  ) -> ValueOption {
    choice(
      name, short: short, value: valueName, usage: usage, names: names, help, message: message,
      lookup: { Value(rawValue: $0.lowercased()) })
  }
}
