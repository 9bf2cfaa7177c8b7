import Foundation

extension ControlState {
  /// The timeline actions that turn `earlier` into this state, one for each control whose value differs,
  /// in the state's key order: slides for the sliders (a kelvin white balance is a `white-balance` slide
  /// to its temperature), a `zoom-center` slide for a moved centre, selections for the white-balance
  /// presets, auto and as shot, the filter and the grid. Applying them to `earlier` gives this state;
  /// equal states give none.
  public func timelineActions(from earlier: ControlState) -> [TimelineAction] {
    ControlKey.allCases.compactMap { key in
      guard differs(from: earlier, in: key) else { return nil }
      switch key.descriptor.kind {
      case .number(_, _, let value): return .slide(key, value: self[keyPath: value])
      case .point: return .slideCenter(zoomCenter)
      case .whiteBalance:
        if case .kelvin(let kelvin) = whiteBalance { return .slide(key, value: kelvin) }
        return .select(key, option: whiteBalance.text)
      case .filter: return .select(key, option: filter.rawValue)
      case .toggle(let value):
        return .select(key, option: ControlKey.gridOptions[self[keyPath: value] ? 1 : 0])
      }
    }
  }
}
