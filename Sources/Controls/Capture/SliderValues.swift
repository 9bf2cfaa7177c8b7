import Foundation

/// The values a slider can take: a continuous range, a stepped range, or a list.
public enum SliderValues: Sendable, Hashable {
  /// Any value in `min … max`.
  case continuous(ClosedRange<Double>)
  /// The values `min + k × step` that lie in `min … max`.
  case stepped(ClosedRange<Double>, step: Double)
  /// The listed values, sorted and without duplicates.
  case list([Double])

  /// The smallest and largest value.
  public var range: ClosedRange<Double> {
    switch self {
    case .continuous(let range), .stepped(let range, _): range
    case .list(let values): (values.first ?? 0)...(values.last ?? 0)
    }
  }

  /// A description of the allowed values for error messages ("-2 … 2 in steps of 0.5").
  public var allowedDescription: String {
    let bounds = "\(NumberText.plain(range.lowerBound)) … \(NumberText.plain(range.upperBound))"
    switch self {
    case .continuous: return bounds
    case .stepped(_, let step): return bounds + " in steps of \(NumberText.plain(step))"
    case .list(let values):
      return "any value in \(bounds); a user lands on one of "
        + values.map { NumberText.plain($0) }.joined(separator: ", ")
    }
  }

  /// The value a user's slide ending at `proposed` lands on, ignoring prominent values.
  ///
  /// The proposal is first clamped to the range (a finger cannot slide past the end); a stepped
  /// slider then lands on the nearest step, a list on the nearest listed value (the lower one on a tie).
  public func nearestValue(to proposed: Double) -> Double {
    let clamped = min(max(proposed, range.lowerBound), range.upperBound)
    switch self {
    case .continuous:
      return clamped
    case .stepped(let range, let step):
      let lastStep = ((range.upperBound - range.lowerBound) / step + 1e-9).rounded(.down)
      let k = min(max(((clamped - range.lowerBound) / step).rounded(), 0), lastStep)
      return range.lowerBound + k * step
    case .list(let values):
      return values.min { abs($0 - clamped) < abs($1 - clamped) } ?? clamped
    }
  }

  /// Checks the description and returns it normalized (a list sorted, duplicates removed).
  func validated(control: String) throws(ControlError) -> SliderValues {
    switch self {
    case .continuous(let range):
      try Self.check(range, control: control)
      return self
    case .stepped(let range, let step):
      try Self.check(range, control: control)
      guard step.isFinite, step > 0 else { throw .invalidStep(control: control, step: step) }
      return self
    case .list(let values):
      guard !values.isEmpty, values.allSatisfy(\.isFinite) else {
        throw .invalidValueList(control: control, values: values)
      }
      return .list(Array(Set(values)).sorted())
    }
  }

  private static func check(_ range: ClosedRange<Double>, control: String) throws(ControlError) {
    guard range.lowerBound.isFinite, range.upperBound.isFinite, range.lowerBound < range.upperBound
    else {
      throw .invalidRange(
        control: control, lowerBound: range.lowerBound, upperBound: range.upperBound)
    }
  }
}
