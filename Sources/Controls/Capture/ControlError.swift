import Foundation

/// A control was configured or set in a way Apple's API rejects with an exception.
///
/// Every message names the control, the offending value and what is allowed.
public enum ControlError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// A slider range whose minimum is not below its maximum, or that is not finite.
  case invalidRange(control: String, lowerBound: Double, upperBound: Double)
  /// A stepped slider whose step is not a positive finite number.
  case invalidStep(control: String, step: Double)
  /// A slider value list that is empty or holds a value that is not finite.
  case invalidValueList(control: String, values: [Double])
  /// A slider value (current, default or prominent) outside the slider's range, or not finite.
  case valueOutOfRange(control: String, value: Double, allowed: String)
  /// A prominent value of a value-list slider that is not one of the listed values.
  case prominentValueNotListed(control: String, value: Double, allowed: String)
  /// An index picker with no titles or no indexes.
  case noIndexes(control: String)
  /// A picker index outside `0..<count`.
  case indexOutOfRange(control: String, index: Int, count: Int)
  /// A user interaction on a disabled control.
  case disabled(control: String)
  /// A device zoom factor or exposure bias outside the device's range.
  case deviceValueOutOfRange(device: String, property: String, value: Double, allowed: String)
  /// A member of ``StandardControls`` that its key's descriptor does not make.
  case notDescribed(control: String, key: String)

  /// A complete sentence describing the problem.
  public var description: String {
    switch self {
    case .invalidRange(let control, let lower, let upper):
      "The control \"\(control)\" cannot use the range \(NumberText.plain(lower)) … \(NumberText.plain(upper)); the minimum must be finite and below the finite maximum."
    case .invalidStep(let control, let step):
      "The control \"\(control)\" cannot use the step \(NumberText.plain(step)); the step must be a finite number above 0."
    case .invalidValueList(let control, let values):
      "The control \"\(control)\" cannot use the value list [\(values.map { NumberText.plain($0) }.joined(separator: ", "))]; the list must hold at least one finite value."
    case .valueOutOfRange(let control, let value, let allowed):
      "The value \(NumberText.plain(value)) is out of range for the control \"\(control)\"; allowed: \(allowed)."
    case .prominentValueNotListed(let control, let value, let allowed):
      "The prominent value \(NumberText.plain(value)) of the control \"\(control)\" is not one of its values; allowed: \(allowed)."
    case .noIndexes(let control):
      "The picker \"\(control)\" has no indexes; give it at least one title or a count above 0."
    case .indexOutOfRange(let control, let index, let count):
      "The index \(index) is out of range for the picker \"\(control)\"; allowed: 0 … \(count - 1)."
    case .disabled(let control):
      "The control \"\(control)\" is disabled and cannot be adjusted; enable it first (allowed: any value once enabled)."
    case .deviceValueOutOfRange(let device, let property, let value, let allowed):
      "The \(property) \(NumberText.plain(value)) is out of range for the device \"\(device)\"; allowed: \(allowed)."
    case .notDescribed(let control, let key):
      "The standard control \"\(control)\" has no descriptor; allowed: a control that the descriptor of \"\(key)\" lists."
    }
  }

  /// The same text as `description`.
  public var errorDescription: String? { description }
}
