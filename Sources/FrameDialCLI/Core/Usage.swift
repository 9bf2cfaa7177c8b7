/// A command's usage line, made from its option declarations: one or more forms (`video IN -o OUT … |
/// video IN --frame-at T …`), each its arguments and options in the order the line shows them. Every
/// option the command accepts that no form shows is added to the end of each form, so the line names
/// them all.
package struct Usage: Sendable {
  /// The forms, each a sequence of terms.
  let forms: [[UsageTerm]]

  /// A usage of one form.
  package init(_ terms: [UsageTerm]) {
    forms = [terms]
  }

  /// A usage of several forms, shown as alternatives.
  package init(forms: [UsageTerm]...) {
    self.forms = forms
  }

  /// The usage line of the command `command` whose parser accepts `options`.
  package func line(command: String, options: [ArgumentParser.Option]) -> String {
    let shown = Set(forms.flatMap { $0.flatMap(\.optionNames) })
    let rest = options.filter { !shown.contains($0.name) }.map { UsageTerm.optional(spec: $0) }
    return forms.map { form in
      ([command] + (form + rest).map(\.text)).joined(separator: " ")
    }.joined(separator: " | ")
  }
}

/// One part of a usage line.
package struct UsageTerm: Sendable {
  fileprivate indirect enum Kind: Sendable {
    case words(String)
    case option(ArgumentParser.Option, value: String?, short: Bool)
    case optional([UsageTerm])
    case choice([[UsageTerm]], required: Bool)
  }

  fileprivate let kind: Kind

  /// Words shown as they are: the positional arguments (`IN|-`, `FILE…`).
  package static func words(_ text: String) -> UsageTerm { UsageTerm(kind: .words(text)) }

  /// `option` and its value, to be given: `--control KEY`; `value` replaces the declared placeholder
  /// (`-o OUT.png`), and `short` spells the option by its short name.
  package static func option(
    _ option: some CommandOption, _ value: String? = nil, short: Bool = false
  ) -> UsageTerm {
    UsageTerm(kind: .option(option.spec, value: value, short: short))
  }

  /// `option`, which may be left out: `[--quality Q]`, or `[--state FILE.json]…` when it may be given
  /// more than once.
  package static func optional(_ option: some CommandOption) -> UsageTerm {
    optional(spec: option.spec)
  }

  fileprivate static func optional(spec: ArgumentParser.Option) -> UsageTerm {
    UsageTerm(kind: .optional([UsageTerm(kind: .option(spec, value: nil, short: false))]))
  }

  /// Terms given together or not at all: `[--timeline FILE.jsonl --fps R]`.
  package static func optional(_ terms: UsageTerm...) -> UsageTerm {
    UsageTerm(kind: .optional(terms))
  }

  /// Alternatives, one of which is given: `(--size WxH | --y4m)`.
  package static func oneOf(_ alternatives: [UsageTerm]...) -> UsageTerm {
    UsageTerm(kind: .choice(alternatives, required: true))
  }

  /// Alternatives, at most one of which is given: `[--strip | --strip-location]`.
  package static func atMostOneOf(_ alternatives: [UsageTerm]...) -> UsageTerm {
    UsageTerm(kind: .choice(alternatives, required: false))
  }

  /// The term as the line shows it.
  var text: String {
    switch kind {
    case .words(let words):
      return words
    case .option(let spec, let value, let short):
      let name = short ? spec.short.map { "-\($0)" } ?? spec.spelled : spec.spelled
      let shownValue = value ?? spec.usageValueName ?? spec.valueName
      return name + (shownValue.map { " \($0)" } ?? "")
    case .optional(let terms):
      let repeated: Bool
      if terms.count == 1, case .option(let spec, _, _) = terms[0].kind {
        repeated = spec.repeatable
      } else {
        repeated = false
      }
      return "[" + terms.map(\.text).joined(separator: " ") + "]" + (repeated ? "…" : "")
    case .choice(let alternatives, let required):
      let inner = alternatives.map { $0.map(\.text).joined(separator: " ") }
        .joined(separator: " | ")
      return required ? "(\(inner))" : "[\(inner)]"
    }
  }

  /// The names of the options the term shows.
  var optionNames: [String] {
    switch kind {
    case .words: return []
    case .option(let spec, _, _): return [spec.name]
    case .optional(let terms): return terms.flatMap(\.optionNames)
    case .choice(let alternatives, _): return alternatives.flatMap { $0.flatMap(\.optionNames) }
    }
  }
}
