import Foundation

extension ControlState {
  /// Returns this state with one `key=value` setting applied (the `--set` form).
  ///
  /// Keys are the command-line names or aliases of `ControlKey` (`ev=0.5`, `wb=4500K`,
  /// `zoom-center=0.3,0.7`). Nothing is clamped.
  /// - Throws: `ControlStateError` naming the key, the value and the allowed range.
  public func applying(assignment: String) throws(ControlStateError) -> ControlState {
    guard let equals = assignment.firstIndex(of: "=") else {
      throw .malformedAssignment(assignment)
    }
    let name = assignment[..<equals].trimmingCharacters(in: .whitespaces)
    let value = String(assignment[assignment.index(after: equals)...])
    guard !name.isEmpty else { throw .malformedAssignment(assignment) }
    return try applying(ControlKey(cliName: name), text: value)
  }

  /// Returns this state with every `key=value` setting applied in order.
  ///
  /// - Throws: `ControlStateError` for the first setting that cannot be applied.
  public func applying(assignments: [String]) throws(ControlStateError) -> ControlState {
    var state = self
    for assignment in assignments {
      state = try state.applying(assignment: assignment)
    }
    return state
  }

  /// Returns this state with `key` set from its text form (the right-hand side of `--set`).
  ///
  /// - Throws: `ControlStateError` naming the key, the value and the allowed range.
  public func applying(_ key: ControlKey, text: String) throws(ControlStateError) -> ControlState {
    let text = text.trimmingCharacters(in: .whitespaces)
    var state = self
    switch key.descriptor.kind {
    case .number(let range, _, let value):
      state[keyPath: value] = try key.number(from: text, in: range)
    case .point(let range): state.zoomCenter = try key.point(from: text, in: range)
    case .whiteBalance: state.whiteBalance = try WhiteBalance(parsing: text, current: whiteBalance)
    case .filter: state.filter = try Filter(parsing: text)
    case .toggle(let value): state[keyPath: value] = try key.toggle(from: text)
    }
    return state
  }

  /// The text form of the value of `key`, which `applying(_:text:)` reads back to the same value.
  public func text(for key: ControlKey) -> String {
    switch key.descriptor.kind {
    case .number(_, _, let value): String(self[keyPath: value])
    case .point: "\(zoomCenter.x),\(zoomCenter.y)"
    case .whiteBalance: whiteBalance.text
    case .filter: filter.rawValue
    case .toggle(let value): self[keyPath: value] ? "on" : "off"
    }
  }
}

extension WhiteBalance {
  /// Reads `none`, `auto`, a preset name, or a temperature in kelvin (`4500` or `4500K`), ignoring case.
  ///
  /// - Throws: `ControlStateError` naming `white-balance`, the value and the allowed values.
  ///
  /// The white-balance picker's titles are accepted too: "As Shot" is `none`, and "Kelvin" keeps
  /// `current`'s temperature (the neutral 5500 K when `current` is not one).
  public init(parsing text: String, current: WhiteBalance = .none) throws(ControlStateError) {
    let word = text.trimmingCharacters(in: .whitespaces).lowercased()
    if word == "kelvin" {
      if case .kelvin = current { self = current } else { self = .kelvin(5500) }
    } else if word == "none" || word == "as shot" {
      self = .none
    } else if word == "auto" {
      self = .auto
    } else if let preset = WhiteBalancePreset(rawValue: word) {
      self = .preset(preset)
    } else {
      let digits = word.hasSuffix("k") ? String(word.dropLast()) : word
      guard Double(digits) != nil else {
        throw .invalidValue(
          key: ControlKey.whiteBalance.cliName, value: text,
          allowed: ControlKey.whiteBalance.allowedValues)
      }
      self = .kelvin(try ControlKey.whiteBalance.number(from: digits, in: ControlState.kelvinRange))
    }
  }

  /// The text form: `none`, `auto`, the preset name, or the temperature with a `K` suffix (`4500K`).
  public var text: String {
    switch self {
    case .none: "none"
    case .auto: "auto"
    case .preset(let preset): preset.rawValue
    case .kelvin(let kelvin): "\(NumberText.shortest(kelvin))K"
    }
  }
}

extension Filter {
  /// Reads a filter name, ignoring case.
  ///
  /// - Throws: `ControlStateError` naming `filter`, the value and the allowed names.
  public init(parsing text: String) throws(ControlStateError) {
    let word = text.trimmingCharacters(in: .whitespaces).lowercased()
    guard let filter = Filter(rawValue: word) else {
      throw .invalidValue(
        key: ControlKey.filter.cliName, value: text, allowed: ControlKey.filter.allowedValues)
    }
    self = filter
  }
}

extension ControlKey {
  /// Reads a toggle's `on` or `off` (also `true`/`false`, any case), as `--set grid=` does.
  func toggle(from text: String) throws(ControlStateError) -> Bool {
    switch text.trimmingCharacters(in: .whitespaces).lowercased() {
    case "on", "true": return true
    case "off", "false": return false
    default: throw .invalidValue(key: cliName, value: text, allowed: allowedValues)
    }
  }

  /// Reads a finite number inside `range`.
  func number(from text: String, in range: ClosedRange<Double>) throws(ControlStateError) -> Double
  {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let lowered = trimmed.lowercased()
    if ["nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"]
      .contains(lowered)
    {
      throw .notFinite(key: cliName, value: trimmed, allowed: allowedValues)
    }
    // Written as a decimal number, but beyond a Double either way: named as written, not as "inf"
    // or silently 0.
    if Self.isDecimalNumber(trimmed) {
      let parsed = Double(trimmed)
      if !(parsed?.isFinite ?? false) {
        throw .notFinite(key: cliName, value: trimmed, allowed: allowedValues)
      }
      let mantissa = trimmed.prefix { $0 != "e" && $0 != "E" }
      if parsed == 0, mantissa.contains(where: { ("1"..."9").contains($0) }) {
        throw .tooSmall(key: cliName, value: trimmed, allowed: allowedValues)
      }
    }
    guard let value = Double(trimmed), !lowered.hasPrefix("0x"), !lowered.hasPrefix("-0x") else {
      throw .wrongType(
        key: cliName, value: "\"\(EchoText.readable(text))\"",
        expected: "a number, " + allowedValues)
    }
    try check(value, in: range)
    return value
  }

  /// True for `[+-]digits[.digits][e[+-]digits]` (also `.5` and `5.`), the decimal numbers `--set`
  /// takes.
  static func isDecimalNumber(_ text: String) -> Bool {
    var rest = Substring(text)
    if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
    let whole = rest.prefix(while: \.isASCIIDigitCharacter)
    rest = rest.dropFirst(whole.count)
    var fraction = Substring()
    if rest.first == "." {
      rest = rest.dropFirst()
      fraction = rest.prefix(while: \.isASCIIDigitCharacter)
      rest = rest.dropFirst(fraction.count)
    }
    guard !whole.isEmpty || !fraction.isEmpty else { return false }
    if rest.first == "e" || rest.first == "E" {
      rest = rest.dropFirst()
      if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
      let exponent = rest.prefix(while: \.isASCIIDigitCharacter)
      guard !exponent.isEmpty else { return false }
      rest = rest.dropFirst(exponent.count)
    }
    return rest.isEmpty
  }

  /// Reads `x,y` with both coordinates inside `range`.
  func point(from text: String, in range: ClosedRange<Double>) throws(ControlStateError)
    -> ZoomCenter
  {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      throw .invalidValue(key: cliName, value: text, allowed: allowedValues)
    }
    let x = try number(from: String(parts[0]), in: range)
    let y = try number(from: String(parts[1]), in: range)
    return ZoomCenter(x: x, y: y)
  }
}

extension Character {
  /// 0 … 9 only (not other scripts' digits).
  fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
