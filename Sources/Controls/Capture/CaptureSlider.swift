import Foundation
import Synchronization

/// A slider in the Camera Control overlay (Apple's `AVCaptureSlider`, and the system zoom and exposure
/// bias sliders made by `systemZoom(device:)` and `systemExposureBias(device:)`).
///
/// A value set from code is checked against the range, stored exactly as given and does not call the
/// action. A user's slide lands on a value (see `landingValue(for:)`) and then runs the action with it on
/// the action's queue.
public final class CaptureSlider: CaptureControl {
  /// Which slider this is: a custom one or one of the two system sliders.
  public enum Kind: String, Sendable, Hashable {
    /// An app-defined slider; it needs an action before a session accepts it.
    case custom
    /// The system zoom slider bound to a device.
    case systemZoom
    /// The system exposure bias slider bound to a device.
    case systemExposureBias
  }

  /// How close to a prominent value, as a fraction of the slider's span (`max - min`), a user's slide
  /// must end to land on that prominent value: 0.02, that is 2 % of the span.
  public static let prominentSnapFraction = 0.02

  private struct Storage: Sendable {
    var value: Double
    var prominentValues: [Double] = []
    var localizedValueFormat: String?
    var attributes = ControlAttributes()
    var action: ControlAction<Double>?
    var observer: ChangeObserver<Double>?
  }

  /// The title shown in the overlay.
  public let title: String
  /// The SF Symbols name shown with the slider.
  public let symbolName: String
  /// The values the slider can take.
  public let values: SliderValues
  /// Whether this is a custom or a system slider.
  public let kind: Kind
  private let presentation: (@Sendable (Double) -> String)?
  private let writeBack: (@Sendable (Double) -> Void)?
  private let storage: Mutex<Storage>

  /// Creates a continuous slider over `range`.
  ///
  /// - Throws: `ControlError` if the range is empty or not finite, or `defaultValue` is outside it.
  public convenience init(
    _ title: String, symbolName: String, in range: ClosedRange<Double>, defaultValue: Double? = nil
  ) throws(ControlError) {
    try self.init(
      title, symbolName: symbolName, values: .continuous(range), defaultValue: defaultValue)
  }

  /// Creates a stepped slider over `range` whose user slides land on `min + k × step`.
  ///
  /// - Throws: `ControlError` if the range is empty, the step is not above 0, or `defaultValue` is outside.
  public convenience init(
    _ title: String, symbolName: String, in range: ClosedRange<Double>, step: Double,
    defaultValue: Double? = nil
  ) throws(ControlError) {
    try self.init(
      title, symbolName: symbolName, values: .stepped(range, step: step), defaultValue: defaultValue
    )
  }

  /// Creates a slider whose user slides land on one of `values` (sorted; the first is the minimum).
  ///
  /// - Throws: `ControlError` if the list is empty or holds a non-finite value, or `defaultValue` is outside.
  public convenience init(
    _ title: String, symbolName: String, values: [Double], defaultValue: Double? = nil
  ) throws(ControlError) {
    try self.init(title, symbolName: symbolName, values: .list(values), defaultValue: defaultValue)
  }

  /// Creates a slider from a value description; the value starts at `defaultValue`, else the minimum.
  ///
  /// - Throws: `ControlError` if the description is invalid or `defaultValue` is outside the range.
  public convenience init(
    _ title: String, symbolName: String, values: SliderValues, defaultValue: Double? = nil
  ) throws(ControlError) {
    try self.init(
      title, symbolName: symbolName, values: values, kind: .custom, initialValue: defaultValue,
      presentation: nil, writeBack: nil)
  }

  init(
    _ title: String, symbolName: String, values: SliderValues, kind: Kind, initialValue: Double?,
    presentation: (@Sendable (Double) -> String)?, writeBack: (@Sendable (Double) -> Void)?
  ) throws(ControlError) {
    let values = try values.validated(control: title)
    let value = initialValue ?? values.range.lowerBound
    guard value.isFinite, values.range.contains(value) else {
      throw .valueOutOfRange(control: title, value: value, allowed: values.allowedDescription)
    }
    self.title = title
    self.symbolName = symbolName
    self.values = values
    self.kind = kind
    self.presentation = presentation
    self.writeBack = writeBack
    storage = Mutex(Storage(value: value))
  }

  /// The current value.
  public var value: Double { storage.withLock { $0.value } }

  /// Sets the value from code: stored exactly as given, no action call; the same value is a no-op.
  /// A system slider also writes the value to its device.
  ///
  /// - Throws: `ControlError.valueOutOfRange` if `newValue` is not finite or outside `values.range`.
  public func setValue(_ newValue: Double) throws(ControlError) {
    try checkInRange(newValue)
    let (changed, observer) = storage.withLock { storage -> (Bool, ChangeObserver<Double>?) in
      guard storage.value != newValue else { return (false, nil) }
      storage.value = newValue
      return (true, storage.observer)
    }
    if changed {
      writeBack?(newValue)
      observer?(newValue, .code)
    }
  }

  /// The values people choose most often; a user's slide near one lands on it.
  public var prominentValues: [Double] { storage.withLock { $0.prominentValues } }

  /// Replaces the prominent values (stored sorted, without duplicates).
  ///
  /// - Throws: `ControlError` if a value is outside the range, or, for a value list, not listed.
  public func setProminentValues(_ newValues: [Double]) throws(ControlError) {
    for value in newValues {
      try checkInRange(value)
      if case .list(let listed) = values, !listed.contains(value) {
        throw .prominentValueNotListed(
          control: title, value: value, allowed: values.allowedDescription)
      }
    }
    let sorted = Array(Set(newValues)).sorted()
    storage.withLock { $0.prominentValues = sorted }
  }

  /// The value format: one `%@` (Apple's form, "%@%%" shows "40%") or one printf-style floating-point
  /// conversion ("ƒ%.1f", "ISO %.0f"); an invalid format falls back to the default presentation.
  public var localizedValueFormat: String? {
    get { storage.withLock { $0.localizedValueFormat } }
    set { storage.withLock { $0.localizedValueFormat = newValue } }
  }

  /// The text the overlay shows for `value` (the current value when `nil`).
  ///
  /// A valid `localizedValueFormat` wins; otherwise a system slider shows its own label ("0.5×",
  /// "+0.3 EV") and a custom slider the number with at most two decimals.
  public func formattedValue(_ value: Double? = nil) -> String {
    let (current, format) = storage.withLock { ($0.value, $0.localizedValueFormat) }
    let shown = value ?? current
    if let format, let parsed = ValueFormat(format) { return parsed.string(for: shown) }
    if let presentation { return presentation(shown) }
    return NumberText.plain(shown, maxFractionDigits: 2)
  }

  /// Sets the action and the queue it runs on; the action receives the value a user's slide landed on.
  public func setActionQueue(_ queue: DispatchQueue, action: @escaping @Sendable (Double) -> Void) {
    storage.withLock { $0.action = ControlAction(queue: queue, body: action) }
  }

  /// The value a user's slide ending at `proposed` lands on.
  ///
  /// The proposal is clamped to the range. If the nearest prominent value is within
  /// `prominentSnapFraction × (max - min)` of it, the slide lands there; otherwise a stepped slider lands
  /// on the nearest step, a value list on the nearest listed value, a continuous slider on the proposal.
  /// A non-finite proposal lands on the current value.
  public func landingValue(for proposed: Double) -> Double {
    let (current, prominent) = storage.withLock { ($0.value, $0.prominentValues) }
    guard proposed.isFinite else { return current }
    let range = values.range
    let clamped = min(max(proposed, range.lowerBound), range.upperBound)
    let snapDistance = Self.prominentSnapFraction * (range.upperBound - range.lowerBound)
    if let nearest = prominent.min(by: { abs($0 - clamped) < abs($1 - clamped) }),
      abs(nearest - clamped) <= snapDistance
    {
      return nearest
    }
    return values.nearestValue(to: clamped)
  }

  /// A user's change to exactly `value`, without landing it: what a recorded slide replays (its value
  /// already landed when it was recorded). Stores the value, writes a system slider's value to its
  /// device, and runs the action if the value changed.
  ///
  /// - Throws: `ControlError.disabled` when disabled, `.valueOutOfRange` outside `values.range`.
  func userSlide(toExactly value: Double) throws(ControlError) {
    try checkInRange(value)
    guard isEnabled else { throw .disabled(control: title) }
    storeUserValue(value)
  }

  /// A user's slide ending at `proposed`: lands (see `landingValue(for:)`), stores the landed value,
  /// writes a system slider's value to its device, and runs the action on its queue if the value changed.
  ///
  /// - Returns: the landed value.
  /// - Throws: `ControlError.disabled` when disabled, `.valueOutOfRange` when `proposed` is not finite.
  @discardableResult
  public func userSlide(to proposed: Double) throws(ControlError) -> Double {
    guard proposed.isFinite else {
      throw .valueOutOfRange(control: title, value: proposed, allowed: values.allowedDescription)
    }
    guard isEnabled else { throw .disabled(control: title) }
    let landed = landingValue(for: proposed)
    storeUserValue(landed)
    return landed
  }

  /// Stores a user's value; when it changed, writes it to the device, tells the observer, then runs the
  /// action on its queue.
  private func storeUserValue(_ value: Double) {
    let (changed, action, observer) = storage.withLock {
      storage -> (Bool, ControlAction<Double>?, ChangeObserver<Double>?) in
      guard storage.value != value else { return (false, nil, nil) }
      storage.value = value
      return (true, storage.action, storage.observer)
    }
    guard changed else { return }
    writeBack?(value)
    observer?(value, .user)
    action?.run(with: value)
  }

  /// Whether the slider can be adjusted.
  public var isEnabled: Bool {
    get { storage.withLock { $0.attributes.isEnabled } }
    set { storage.withLock { $0.attributes.isEnabled = newValue } }
  }

  /// An identifier for accessibility and for remembering the last control used.
  public var accessibilityIdentifier: String? {
    get { storage.withLock { $0.attributes.accessibilityIdentifier } }
    set { storage.withLock { $0.attributes.accessibilityIdentifier = newValue } }
  }

  /// The capture modes in which the session enables the slider.
  public var captureModes: Set<CaptureMode> {
    get { storage.withLock { $0.attributes.captureModes } }
    set { storage.withLock { $0.attributes.captureModes = newValue } }
  }

  /// Custom sliders need an action before a session accepts them; system sliders do not.
  public var requiresAction: Bool { kind == .custom }

  /// Whether an action is set.
  public var hasAction: Bool { storage.withLock { $0.action != nil || $0.observer != nil } }

  /// Calls `observer` synchronously after every change of the value, by a user or from code (the
  /// standard control set publishes and records through it); it counts as the slider's action.
  func observe(_ observer: @escaping ChangeObserver<Double>) {
    storage.withLock { $0.observer = observer }
  }

  private func checkInRange(_ value: Double) throws(ControlError) {
    guard value.isFinite, values.range.contains(value) else {
      throw .valueOutOfRange(control: title, value: value, allowed: values.allowedDescription)
    }
  }
}
