import Foundation
import Synchronization

/// A picker of discrete options in the Camera Control overlay (Apple's `AVCaptureIndexPicker`).
///
/// `selectedIndex` is zero-based and starts at 0 unless told otherwise. A selection from code is
/// checked, stored and does not call the action; a user's selection runs the action on its queue.
/// A two-option picker models a toggle (see `toggle(_:symbolName:offTitle:onTitle:isOn:)`).
public final class CaptureIndexPicker: CaptureControl {
  private struct Storage: Sendable {
    var selectedIndex: Int
    var attributes = ControlAttributes()
    var action: ControlAction<Int>?
    var observer: ChangeObserver<Int>?
  }

  /// The title shown in the overlay.
  public let title: String
  /// The SF Symbols name shown with the picker.
  public let symbolName: String
  /// The title of each index, in order.
  public let localizedIndexTitles: [String]
  private let storage: Mutex<Storage>

  /// Creates a picker with one option per title.
  ///
  /// - Throws: `ControlError` if `titles` is empty or `selectedIndex` is outside `0..<titles.count`.
  public convenience init(
    _ title: String, symbolName: String, localizedIndexTitles titles: [String],
    selectedIndex: Int = 0
  ) throws(ControlError) {
    guard !titles.isEmpty else { throw .noIndexes(control: title) }
    guard titles.indices.contains(selectedIndex) else {
      throw .indexOutOfRange(control: title, index: selectedIndex, count: titles.count)
    }
    self.init(
      checkedTitle: title, symbolName: symbolName, titles: titles, selectedIndex: selectedIndex)
  }

  private init(checkedTitle title: String, symbolName: String, titles: [String], selectedIndex: Int)
  {
    self.title = title
    self.symbolName = symbolName
    localizedIndexTitles = titles
    storage = Mutex(Storage(selectedIndex: selectedIndex))
  }

  /// Creates a picker with `numberOfIndexes` options titled by `titleTransform` (called once per index;
  /// without it an option is titled by its index).
  ///
  /// - Throws: `ControlError` if `numberOfIndexes` is not above 0 or `selectedIndex` is out of range.
  public convenience init(
    _ title: String, symbolName: String, numberOfIndexes: Int, selectedIndex: Int = 0,
    localizedTitleTransform titleTransform: ((Int) -> String)? = nil
  ) throws(ControlError) {
    guard numberOfIndexes > 0 else { throw .noIndexes(control: title) }
    let titles = (0..<numberOfIndexes).map { titleTransform?($0) ?? String($0) }
    try self.init(
      title, symbolName: symbolName, localizedIndexTitles: titles, selectedIndex: selectedIndex)
  }

  /// Creates a two-option picker that models a toggle: index 0 is off, index 1 is on.
  public static func toggle(
    _ title: String, symbolName: String, offTitle: String = "Off", onTitle: String = "On",
    isOn: Bool = false
  ) -> CaptureIndexPicker {
    CaptureIndexPicker(
      checkedTitle: title, symbolName: symbolName, titles: [offTitle, onTitle],
      selectedIndex: isOn ? 1 : 0)
  }

  /// The number of options.
  public var numberOfIndexes: Int { localizedIndexTitles.count }

  /// The selected index.
  public var selectedIndex: Int { storage.withLock { $0.selectedIndex } }

  /// For a two-option picker, whether the second option ("on") is selected.
  public var isOn: Bool { numberOfIndexes == 2 && selectedIndex == 1 }

  /// Selects an index from code: no action call; the same index is a no-op.
  ///
  /// - Throws: `ControlError.indexOutOfRange` outside `0..<numberOfIndexes`.
  public func setSelectedIndex(_ index: Int) throws(ControlError) {
    try checkIndex(index)
    let observer = storage.withLock { storage -> ChangeObserver<Int>? in
      guard storage.selectedIndex != index else { return nil }
      storage.selectedIndex = index
      return storage.observer
    }
    observer?(index, .code)
  }

  /// A user's selection: stores it and, if it changed, runs the action on its queue with the index.
  ///
  /// - Throws: `ControlError.disabled` when disabled, `.indexOutOfRange` outside `0..<numberOfIndexes`.
  public func userSelect(_ index: Int) throws(ControlError) {
    try checkIndex(index)
    guard isEnabled else { throw .disabled(control: title) }
    let (changed, action, observer) = storage.withLock {
      storage -> (Bool, ControlAction<Int>?, ChangeObserver<Int>?) in
      guard storage.selectedIndex != index else { return (false, nil, nil) }
      storage.selectedIndex = index
      return (true, storage.action, storage.observer)
    }
    if changed {
      observer?(index, .user)
      action?.run(with: index)
    }
  }

  /// Sets the action and the queue it runs on; the action receives the index a user selected.
  public func setActionQueue(_ queue: DispatchQueue, action: @escaping @Sendable (Int) -> Void) {
    storage.withLock { $0.action = ControlAction(queue: queue, body: action) }
  }

  /// Whether the picker can be adjusted.
  public var isEnabled: Bool {
    get { storage.withLock { $0.attributes.isEnabled } }
    set { storage.withLock { $0.attributes.isEnabled = newValue } }
  }

  /// An identifier for accessibility and for remembering the last control used.
  public var accessibilityIdentifier: String? {
    get { storage.withLock { $0.attributes.accessibilityIdentifier } }
    set { storage.withLock { $0.attributes.accessibilityIdentifier = newValue } }
  }

  /// The capture modes in which the session enables the picker.
  public var captureModes: Set<CaptureMode> {
    get { storage.withLock { $0.attributes.captureModes } }
    set { storage.withLock { $0.attributes.captureModes = newValue } }
  }

  /// Pickers always need an action before a session accepts them.
  public var requiresAction: Bool { true }

  /// Whether an action is set.
  public var hasAction: Bool { storage.withLock { $0.action != nil || $0.observer != nil } }

  /// Calls `observer` synchronously after every change of the selection, by a user or from code (the
  /// standard control set publishes and records through it); it counts as the picker's action.
  func observe(_ observer: @escaping ChangeObserver<Int>) {
    storage.withLock { $0.observer = observer }
  }

  private func checkIndex(_ index: Int) throws(ControlError) {
    guard localizedIndexTitles.indices.contains(index) else {
      throw .indexOutOfRange(control: title, index: index, count: numberOfIndexes)
    }
  }
}
