import Foundation

/// A timeline that cannot be read, written or used.
public enum TimelineError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// A JSON Lines line is malformed; `line` counts from 1.
  case malformedLine(line: Int, problem: String)
  /// The control does not take this kind of action (a slide on the filter picker, for example).
  case unsupportedAction(control: String, action: String)
  /// An event time that is negative or not finite.
  case invalidTime(Double)
  /// A keyframed slide's duration that is negative or not finite.
  case invalidDuration(Double)
  /// A duration on an event that is not a slide.
  case transitionNotAllowed(action: String)
  /// A keyframed move that cannot be made (see ``TimelinePlayhead``).
  case unsupportedMove(String)
  /// The event at `time` cannot be applied to the state at that time.
  case inapplicable(time: Double, problem: String)
  /// The file cannot be read or written.
  case fileError(path: String, reason: String)

  /// A complete sentence describing the problem.
  public var description: String {
    switch self {
    case .malformedLine(let line, let problem):
      "Timeline line \(line) is malformed: \(problem)"
    case .unsupportedAction(let control, let action):
      "The control \"\(control)\" does not accept a \(action) event; allowed: slide on "
        + ControlKey.allCases.filter(\.acceptsSlide).map(\.rawValue).joined(separator: ", ")
        + "; select on "
        + ControlKey.allCases.filter(\.acceptsSelect).map(\.rawValue).joined(separator: ", ")
        + "."
    case .invalidTime(let time):
      "The event time \(time) is not valid; allowed: a finite number of seconds, 0 or more."
    case .invalidDuration(let duration):
      "The duration \(duration) is not valid; allowed: a finite number of seconds, 0 or more."
    case .transitionNotAllowed(let action):
      "A \(action) event cannot have a duration or curve; only slides move over time."
    case .unsupportedMove(let problem):
      "The keyframed slide cannot be made: \(problem)."
    case .inapplicable(let time, let problem):
      "The timeline event at \(time) s cannot be applied: \(problem)"
    case .fileError(let path, let reason):
      "The timeline file \(path) cannot be used: \(reason)."
    }
  }

  /// The same text as `description`.
  public var errorDescription: String? { description }
}
