import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

@Suite struct SweepTests {
  func selection(_ name: String) throws -> ControlSelection {
    try ControlSelection(name, device: CaptureDeviceModel.named("iphone-16-pro"))
  }

  @Test func defaultValuesAreTheProminentValuesTheRangeEndsAndAtLeastFiveSteps() throws {
    // Prominent values and ends give three; the quarter points of the range fill in.
    #expect(
      try selection("exposure-bias").sweep(from: .identity).map(\.label)
        == ["-8.0 EV", "-4.0 EV", "0.0 EV", "+4.0 EV", "+8.0 EV"])
    #expect(
      try selection("contrast").sweep(from: .identity).map(\.label)
        == ["×0.00", "×0.50", "×1.00", "×1.50", "×2.00"])
    // Zoom's quarters are on its logarithmic scale: 2×, 4× and 8× of 1× … 16×, with the 5× lens.
    #expect(
      try selection("zoom").sweep(from: .identity).map(\.label)
        == ["1×", "2×", "4×", "5×", "8×", "16×"])
    // Enough already: the temperature's prominent values and ends are seven.
    #expect(try selection("temperature").sweep(from: .identity).count == 7)
    // A picker sweep shows every option, white balance's Kelvin at the state's temperature.
    let filters = try selection("filter").sweep(from: .identity)
    #expect(filters.map(\.state.filter) == Filter.allCases)
    let balances = try selection("wb").sweep(from: .identity).map(\.label)
    #expect(balances == Array(StandardControls.whiteBalanceTitles.dropLast()) + ["5500 K"])
    let warm = try selection("wb").sweep(from: ControlState(whiteBalance: .kelvin(3200)))
    #expect(warm.last?.label == "3200 K" && warm.last?.state.whiteBalance == .kelvin(3200))
  }

  @Test func givenValuesKeepTheirOrderAndAreChecked() throws {
    let steps = try selection("temperature").sweep(
      from: ControlState(exposureBias: 0.5), values: ["6500", "3000K", "4500"])
    #expect(steps.map(\.label) == ["6500 K", "3000 K", "4500 K"])
    #expect(steps.map(\.state.whiteBalance) == [.kelvin(6500), .kelvin(3000), .kelvin(4500)])
    #expect(steps.allSatisfy { $0.state.exposureBias == 0.5 })
    let picks = try selection("wb").sweep(from: .identity, values: ["As Shot", "tungsten", "4000"])
    #expect(picks.map(\.label) == ["As Shot", "Tungsten", "4000 K"])
    #expect(throws: ControlSelectionError.self) {
      try selection("contrast").sweep(from: .identity, values: ["9"])
    }
    #expect(throws: ControlSelectionError.self) {
      try selection("filter").sweep(from: .identity, values: ["sparkle"])
    }
    #expect(throws: ControlSelectionError.notAPictureControl("grid")) {
      try selection("grid").sweep(from: .identity)
    }
  }

  @Test func layoutPlacesTilesInValueOrder() {
    let layout = SweepLayout.make(count: 6, imageWidth: 640, imageHeight: 427)
    #expect(layout.tileWidth == 400 && layout.tileHeight == 267)
    #expect(layout.columns == 4)
    #expect(layout.tiles.count == 6 && layout.labels.count == 6)
    for index in 1..<6 {
      let (before, after) = (layout.tiles[index - 1], layout.tiles[index])
      #expect(after.y > before.y || (after.y == before.y && after.x > before.x))
      #expect(!after.intersects(before))
      #expect(layout.labels[index].y == after.maxY)
    }
    #expect(layout.tiles[4].x == layout.tiles[0].x && layout.tiles[4].y > layout.tiles[3].maxY)
    #expect(layout.labels.allSatisfy { $0.maxX <= layout.width && $0.maxY <= layout.height })
    let small = SweepLayout.make(count: 2, imageWidth: 120, imageHeight: 80)
    #expect(small.tileWidth == 120 && small.tileHeight == 80 && small.columns == 2)
  }

  @Test func sheetShowsEachValueInOrderWithItsLabel() throws {
    let picture = try StillInput.load(RenderFixtures.sample("coffee.png"), keepSixteenBits: false)
    let steps = try selection("ev").sweep(from: .identity)
    let (sheet, layout) = try SweepRenderer().sheet(picture, steps: steps, heading: "Exposure")
    #expect(sheet.width == layout.width && sheet.height == layout.height)
    #expect(layout.tiles.count == 5)
    let bytes = try sheet.pixelBytes()
    func region(_ rect: PixelRect) -> [UInt8] {
      var out: [UInt8] = []
      for y in rect.y..<rect.maxY {
        let start = (y * sheet.width + rect.x) * 3
        out += bytes[start..<(start + rect.width * 3)]
      }
      return out
    }
    func mean(_ values: [UInt8]) -> Double {
      Double(values.reduce(0) { $0 + Int($1) }) / Double(max(1, values.count))
    }
    // Brighter exposure, brighter tile: the tiles are in value order.
    let means = layout.tiles.map { mean(region($0)) }
    #expect(zip(means, means.dropFirst()).allSatisfy { $0 < $1 }, "\(means)")
    // Every label strip holds yellow text.
    for strip in layout.labels {
      let pixels = region(strip)
      let yellow = stride(from: 0, to: pixels.count, by: 3).filter {
        pixels[$0] > 200 && pixels[$0 + 1] > 150 && pixels[$0 + 2] < 100
      }
      #expect(yellow.count > 20)
    }
  }
}
