import Foundation

/// A control-state value that cannot be accepted; every message names the key, the value and what is allowed.
public enum ControlStateError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// The key is not part of the control-state vocabulary.
  case unknownKey(key: String, known: String)
  /// The value has the wrong type (for example a string where a number belongs).
  case wrongType(key: String, value: String, expected: String)
  /// The value is NaN or infinite.
  case notFinite(key: String, value: String, allowed: String)
  /// The number is not 0 but too small to represent: it would read as 0.
  case tooSmall(key: String, value: String, allowed: String)
  /// The string holds half of a UTF-16 surrogate pair (`escape`, such as `\ud800`), which is no
  /// character.
  case notACharacter(key: String, escape: String)
  /// The value lies outside the allowed range.
  case outOfRange(key: String, value: String, allowed: String)
  /// The value is not one of the allowed words or forms.
  case invalidValue(key: String, value: String, allowed: String)
  /// A `--set` argument is not of the form `key=value`.
  case malformedAssignment(String)
  /// The JSON text could not be read as an object.
  case invalidJSON(String)
  /// The state file could not be read at all (no such file, not a regular file, …).
  case unreadable(String)
  /// An error found while reading a named source, such as a state file.
  indirect case inSource(String, ControlStateError)
  /// An error at a line and column (from 1; columns count characters) of a JSON text: a syntax error
  /// where it is found, a bad key or value where its key is.
  indirect case at(line: Int, column: Int, ControlStateError)

  /// A complete sentence describing the problem.
  public var description: String {
    switch self {
    case .unknownKey(let key, let known):
      "Unknown control key \"\(Self.echo(key))\"; known keys are: \(known)."
        + Self.keySuggestion(for: key, known: Self.words(in: known))
    case .wrongType(let key, let value, let expected):
      "The value \(Self.echo(value, limit: 2 * EchoText.defaultLimit)) for \"\(key)\" has the wrong "
        + "type; expected \(expected)."
    case .notFinite(let key, let value, let allowed):
      "The value \(Self.echo(value)) for \"\(key)\" is not a finite number; allowed: \(allowed)."
    case .tooSmall(let key, let value, let allowed):
      "The value \(Self.echo(value)) for \"\(key)\" is too small to represent (it would read as 0; "
        + "write 0 for 0); allowed: \(allowed)."
    case .notACharacter(let key, let escape):
      "The value for \"\(key)\" holds \(escape), half of a UTF-16 surrogate pair without its other "
        + "half, which is no character."
    case .outOfRange(let key, let value, let allowed):
      "The value \(Self.echo(value)) for \"\(key)\" is out of range; allowed: \(allowed)."
    case .invalidValue(let key, let value, let allowed):
      "The value \"\(Self.echo(value))\" for \"\(key)\" is not valid; allowed: \(allowed)."
        + NearestWord.didYouMean(value, among: Self.words(in: allowed))
    case .malformedAssignment(let text):
      "The setting \"\(Self.echo(text))\" is not of the form key=value (for example ev=0.5); known keys are: \(ControlKey.cliNamesDescription)."
    case .unreadable(let reason):
      "The file cannot be read: \(reason)."
    case .invalidJSON(let problem):
      "The control state is not a valid JSON object: \(problem)."
    case .inSource(let source, .at(let line, let column, let error)):
      "\(source):\(line):\(column): \(error.description)"
    case .inSource(let source, let error):
      "In \(source): \(error.description)"
    case .at(let line, let column, let error):
      "At line \(line), column \(column): \(error.description)"
    }
  }

  /// A key, value or setting as a message repeats it: control characters escaped, at most `limit`
  /// characters (a wrong type's value arrives cut already, followed by its type, and is given room).
  static func echo(_ text: String, limit: Int = EchoText.defaultLimit) -> String {
    EchoText.readable(text, limit: limit)
  }

  /// " Did you mean …?" for an unknown key: a control's name from the other vocabulary (`ev` or
  /// `exposure-bias` in a JSON state means `exposureBias`; `exposureBias` in `--set` means `exposure-bias`),
  /// else the nearest known key.
  static func keySuggestion(for key: String, known: [String]) -> String {
    let named = ControlKey.allCases.first {
      ([$0.cliName, $0.jsonKey] + $0.aliases + $0.jsonAliases).contains(key)
    }
    if let named,
      let name = [named.jsonKey, named.cliName].first(where: { known.contains($0) && $0 != key })
    {
      return " Did you mean \"\(name)\"?"
    }
    return NearestWord.didYouMean(key, among: known)
  }

  /// The words of a list of allowed values or keys ("none, auto, daylight, … or 4500K"), for a "did you
  /// mean" suggestion.
  static func words(in list: String) -> [String] {
    list.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }).map(String.init)
  }

  /// The same text as `description`.
  public var errorDescription: String? { description }
}
