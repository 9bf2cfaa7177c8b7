import Foundation

extension StandardControls: TimelineTarget {
  /// Performs a user action as a person on the Camera Control would, publishes the new state, and
  /// records the action (with the landed value) if a recorder is set.
  ///
  /// A slide lands like any user slide (`white-balance` slides the temperature slider and switches the
  /// picker to Kelvin); a selection names an option in the state vocabulary (`"mono"`, `"daylight"`,
  /// `"4500K"`, `"on"`); a press goes to the capture event interaction, if any.
  /// - Throws: `ControlError`, `ControlStateError` or `TimelineError` for a value that is not allowed.
  public func perform(_ action: TimelineAction) throws {
    // The action is recorded here once, as performed, rather than by each control it moves.
    let thread = pthread_self()
    publishing.withLock { _ = $0.performingThreads.insert(thread) }
    defer { _ = publishing.withLock { $0.performingThreads.remove(thread) } }
    let performed: TimelineAction
    switch action {
    case .slide(let name, let value):
      guard name.acceptsSlide,
        let slider = sliders[name]
      else {
        throw TimelineError.unsupportedAction(control: name.rawValue, action: "slide")
      }
      performed = .slide(name, value: try slider.userSlide(to: value))
    case .slideCenter(let center):
      var moved = state
      moved.zoomCenter = center
      try apply(moved)
      performed = action
    case .select(let name, let option):
      performed = .select(name, option: try select(name, option: option))
    case .press(let event):
      _ = captureEventInteraction?.deliver(event)
      performed = action
    }
    recorder?.record(performed)
  }

  /// Replays a recorded action: a slide sets exactly the recorded value (it landed when it was recorded)
  /// as a user's change, so the white-balance picker follows a temperature and the state matches
  /// `Timeline.state(at:)`; selections and presses are performed as by `perform(_:)`.
  /// - Throws: `ControlError` for a value outside the slider's range on this device.
  public func replay(_ action: TimelineAction) throws {
    guard case .slide(let name, let value) = action else { return try perform(action) }
    guard name.acceptsSlide,
      let slider = sliders[name]
    else {
      throw TimelineError.unsupportedAction(control: name.rawValue, action: "slide")
    }
    try slider.userSlide(toExactly: value)
  }

  /// Selects `option` on the picker `name` refers to; returns the option in its normalized form.
  private func select(_ name: ControlKey, option: String) throws -> String {
    if case .toggle = name.descriptor.kind, let toggle = pickers[name] {
      // The same words `--set` reads.
      let index = try name.toggle(from: option) ? 1 : 0
      try toggle.userSelect(index)
      return ControlKey.gridOptions[index]
    }
    switch name {
    case .filter:
      let chosen = try Filter(parsing: option)
      try filter.userSelect(Filter.allCases.firstIndex(of: chosen) ?? 0)
      return chosen.rawValue
    case .whiteBalance:
      let balance = try WhiteBalance(parsing: option)
      switch balance {
      case .none: try whiteBalance.userSelect(0)
      case .auto: try whiteBalance.userSelect(1)
      case .preset(let preset):
        try whiteBalance.userSelect((WhiteBalancePreset.allCases.firstIndex(of: preset) ?? 0) + 2)
      case .kelvin(let kelvin):
        try publishingOnce { () throws(ControlError) in
          try temperature.setValue(kelvin)
          try whiteBalance.userSelect(Self.whiteBalanceTitles.count - 1)
        }
      }
      return balance.text
    default:
      throw TimelineError.unsupportedAction(control: name.rawValue, action: "select")
    }
  }
}
