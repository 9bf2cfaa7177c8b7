import Foundation
import Testing

@testable import Controls

/// The actions that turn one state into another: what `studio` records when the page changes the state.
@Suite struct TimelineActionsTests {
  @Test func actionsFromTheIdentityRebuildTheStateAndSurviveJSONLines() throws {
    let state = ControlState(
      exposureBias: -0.7, zoom: 2.5, zoomCenter: ZoomCenter(x: 0.25, y: 0.6), contrast: 1.3,
      saturation: 0.4, whiteBalance: .kelvin(4200), tint: -30, filter: .noir, grid: true)
    let actions = state.timelineActions(from: .identity)
    #expect(actions.count == 9)
    #expect(actions.contains(.slide(.whiteBalance, value: 4200)))
    #expect(actions.contains(.select(.grid, option: "on")))
    var rebuilt = ControlState.identity
    for action in actions { rebuilt = try rebuilt.applying(action) }
    #expect(rebuilt == state)
    let timeline = try Timeline(events: actions.map { TimelineEvent(time: 0, action: $0) })
    let read = try Timeline(jsonLines: timeline.jsonLines())
    #expect(try read.state(at: 0) == state)
  }

  @Test func onlyTheChangedControlsMoveAndPresetsAreSelections() throws {
    let before = ControlState(exposureBias: 1, whiteBalance: .kelvin(3000), filter: .mono)
    let after = ControlState(exposureBias: 1, whiteBalance: .preset(.cloudy), filter: .none)
    #expect(
      after.timelineActions(from: before) == [
        .select(.whiteBalance, option: "cloudy"), .select(.filter, option: "none"),
      ])
    #expect(try after.timelineActions(from: before).reduce(before) { try $0.applying($1) } == after)
    #expect(
      ControlState(whiteBalance: .auto).timelineActions(from: .identity)
        == [.select(.whiteBalance, option: "auto")])
    #expect(after.timelineActions(from: after).isEmpty)
  }
}
