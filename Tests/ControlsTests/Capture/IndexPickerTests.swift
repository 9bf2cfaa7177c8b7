import Dispatch
import Foundation
import Testing

@testable import Controls

@Suite struct IndexPickerTests {
  @Test func titlesOrCountWithTransform() throws {
    let picker = try CaptureIndexPicker(
      "WB", symbolName: "w", localizedIndexTitles: ["Auto", "Daylight"])
    #expect(picker.numberOfIndexes == 2 && picker.selectedIndex == 0)
    var calls = 0
    let counted = try CaptureIndexPicker("N", symbolName: "n", numberOfIndexes: 3) { index in
      calls += 1
      return "×\(index + 1)"
    }
    #expect(counted.localizedIndexTitles == ["×1", "×2", "×3"] && calls == 3)
    #expect(
      try CaptureIndexPicker("N", symbolName: "n", numberOfIndexes: 2).localizedIndexTitles == [
        "0", "1",
      ])
    #expect(throws: ControlError.self) {
      try CaptureIndexPicker("N", symbolName: "n", numberOfIndexes: 0)
    }
    #expect(throws: ControlError.self) {
      try CaptureIndexPicker("N", symbolName: "n", localizedIndexTitles: [])
    }
  }

  @Test func selectedIndexRules() throws {
    let queue = DispatchQueue(label: "picker")
    let calls = Collected<Int>()
    let picker = try CaptureIndexPicker(
      "Filter", symbolName: "f", localizedIndexTitles: ["A", "B", "C"])
    picker.setActionQueue(queue) { calls.append($0) }
    let error = caught(ControlError.self) { try picker.setSelectedIndex(3) }
    #expect(error == .indexOutOfRange(control: "Filter", index: 3, count: 3))
    #expect(error?.description.contains("0 … 2") == true)
    try picker.setSelectedIndex(2)
    try picker.userSelect(1)
    try picker.userSelect(1)
    queue.sync {}
    #expect(calls.all == [1])
    #expect(throws: ControlError.self) { try picker.userSelect(-1) }
  }

  @Test func toggleModelsGridOnOff() throws {
    let grid = CaptureIndexPicker.toggle("Grid", symbolName: "grid")
    #expect(!grid.isOn && grid.localizedIndexTitles == ["Off", "On"])
    try grid.setSelectedIndex(1)
    #expect(grid.isOn)
  }
}
