import Foundation

extension ControlState {
  /// The timeline actions that turn `earlier` into this state, one for each control whose value differs,
  /// in the state's key order: slides for the sliders (a kelvin white balance is a `white-balance` slide
  /// to its temperature), a `zoom-center` slide for a moved centre, selections for the white-balance
  /// presets, auto and as shot, the filter and the grid. Applying them to `earlier` gives this state;
  /// equal states give none.
  public func timelineActions(from earlier: ControlState) -> [TimelineAction] {
    var actions: [TimelineAction] = []
    let sliders: [(TimelineControl, Double, Double)] = [
      (.exposureBias, exposureBias, earlier.exposureBias), (.zoom, zoom, earlier.zoom),
    ]
    for (control, value, before) in sliders where value != before {
      actions.append(.slide(control, value: value))
    }
    if zoomCenter != earlier.zoomCenter { actions.append(.slideCenter(zoomCenter)) }
    if contrast != earlier.contrast { actions.append(.slide(.contrast, value: contrast)) }
    if saturation != earlier.saturation { actions.append(.slide(.saturation, value: saturation)) }
    if whiteBalance != earlier.whiteBalance {
      if case .kelvin(let kelvin) = whiteBalance {
        actions.append(.slide(.whiteBalance, value: kelvin))
      } else {
        actions.append(.select(.whiteBalance, option: whiteBalance.text))
      }
    }
    if tint != earlier.tint { actions.append(.slide(.tint, value: tint)) }
    if filter != earlier.filter { actions.append(.select(.filter, option: filter.rawValue)) }
    if grid != earlier.grid {
      actions.append(.select(.grid, option: TimelineControl.gridOptions[grid ? 1 : 0]))
    }
    return actions
  }
}
