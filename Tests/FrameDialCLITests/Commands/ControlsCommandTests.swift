import Controls
import Foundation
import TestSupport
import Testing

@Suite struct ControlsCommandTests {
  static let overlayOrder = [
    "grid", "white-balance", "temperature", "contrast", "exposure-bias", "zoom", "saturation",
    "tint", "filter",
  ]

  func rows(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).filter { line in
      Self.overlayOrder.contains { line.hasPrefix($0 + " ") }
    }
  }

  @Test func textListsTheStandardControlsInOverlayOrderWithLabels() throws {
    let result = try CLIRunner.run(["controls"])
    #expect(result.status == 0, "\(result.standardError)")
    let text = result.standardOutput
    #expect(text.hasPrefix("iPhone 16 Pro (iphone-16-pro): Camera Control"))
    let rows = rows(text)
    #expect(rows.map { String($0.prefix { $0 != " " }) } == Self.overlayOrder)
    let zoom = try #require(rows.first { $0.hasPrefix("zoom ") })
    #expect(zoom.contains("system-zoom-slider"))
    #expect(zoom.contains("plus.magnifyingglass"))
    // zoom=1 is the picture as it is, labelled 1× as the phone shows its 1× camera; 5× is the
    // telephoto; the slider stops at --set's 16 where the phone's digital zoom reaches 25×.
    #expect(zoom.contains("1 … 16 (labelled 1× … 16×)"))
    #expect(zoom.contains("1×, 5×"))
    #expect(zoom.hasSuffix(" 1×"))
    #expect(text.contains("the iPhone 16 Pro reaches 25×, --set stops at 16×."))
    let exposure = try #require(rows.first { $0.hasPrefix("exposure-bias ") })
    #expect(exposure.contains("-8 … 8"))
    #expect(exposure.hasSuffix("0.0 EV"))
    let temperature = try #require(rows.first { $0.hasPrefix("temperature ") })
    #expect(temperature.contains("2850 K, 3800 K, 5500 K, 6500 K, 7500 K"))
    #expect(temperature.contains("%.0f K"))
    let filter = try #require(rows.first { $0.hasPrefix("filter ") })
    #expect(filter.contains("None, Mono, Tonal, Noir, Sepia"))
    // Aligned: every column starts at the same character in every row and the header.
    let lines = text.split(separator: "\n").map(String.init)
    let header = try #require(lines.first { $0.hasPrefix("CONTROL") })
    let kindColumn = try #require(header.range(of: "KIND")).lowerBound
    let offset = header.distance(from: header.startIndex, to: kindColumn)
    for row in rows {
      let kind = row.dropFirst(offset)
      #expect(["index-picker", "slider", "system-"].contains { kind.hasPrefix($0) }, "\(row)")
      #expect(!row.hasSuffix(" "))
    }
  }

  @Test func jsonIsOneArrayWithStableKeys() throws {
    let result = try CLIRunner.run(["controls", "--json", "--device", "iphone-16"])
    #expect(result.status == 0, "\(result.standardError)")
    let document = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let controls = try #require(document as? [[String: Any]])
    #expect(controls.compactMap { $0["identifier"] as? String } == Self.overlayOrder)
    let keys: Set = [
      "identifier", "kind", "title", "symbol", "minimum", "maximum", "rangeLabels", "step",
      "values",
      "options",
      "prominentValues", "prominentLabels", "valueFormat", "defaultValue", "defaultIndex",
      "example",
    ]
    for control in controls { #expect(Set(control.keys) == keys) }
    let zoom = try #require(controls.first { $0["identifier"] as? String == "zoom" })
    #expect(zoom["kind"] as? String == "system-zoom-slider")
    #expect(zoom["minimum"] as? Double == 1)
    // The iPhone 16's digital zoom ends at 10×, as `devices` says; zoom=1 is the picture as it is, 1×.
    #expect(zoom["maximum"] as? Double == 10)
    #expect(zoom["rangeLabels"] as? [String] == ["1×", "10×"])
    #expect(zoom["prominentValues"] as? [Double] == [1])
    #expect(zoom["prominentLabels"] as? [String] == ["1×"])
    #expect(zoom["example"] as? String == "1×")
    #expect(zoom["valueFormat"] is NSNull)
    let contrast = try #require(controls.first { $0["identifier"] as? String == "contrast" })
    #expect(contrast["valueFormat"] as? String == "×%.2f")
    #expect(contrast["defaultValue"] as? Double == 1)
    #expect(contrast["example"] as? String == "×1.00")
    let balance = try #require(controls.first { $0["identifier"] as? String == "white-balance" })
    #expect(balance["kind"] as? String == "index-picker")
    #expect((balance["options"] as? [String])?.first == "As Shot")
    #expect(balance["defaultIndex"] as? Int == 0)
    #expect(balance["minimum"] is NSNull)
    #expect(result.standardError.isEmpty)
  }

  @Test func aDeviceWithoutCameraControlIsListedWithANote() throws {
    let text = try CLIRunner.run(["controls", "--device", "webcam"])
    #expect(text.status == 0)
    #expect(text.standardOutput.hasPrefix("USB webcam (webcam) has no Camera Control"))
    let zoom = try #require(rows(text.standardOutput).first { $0.hasPrefix("zoom ") })
    #expect(zoom.contains("1 … 4"))
    #expect(zoom.contains("1×"))
    let json = try CLIRunner.run(["controls", "--device", "webcam", "--json"])
    #expect(json.status == 0)
    #expect(json.standardError.contains("has no Camera Control"))
    let document = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
    #expect((document as? [Any])?.count == Self.overlayOrder.count)
  }

  @Test func unknownDevicesAndArgumentsAreUsageErrors() throws {
    let unknown = try CLIRunner.run(["controls", "--device", "pixel-9"])
    #expect(unknown.status == 2)
    #expect(unknown.standardError.contains("pixel-9"))
    #expect(unknown.standardError.contains("iphone-16-pro-max, iphone-16-pro"))
    #expect(unknown.standardError.contains(", webcam"))
    // A screen without camera figures is named as such.
    let screenOnly = try CLIRunner.run(["controls", "--device", "ipad-pro-11"])
    #expect(screenOnly.status == 2)
    #expect(screenOnly.standardError.contains("no camera figures"))
    #expect(unknown.standardOutput.isEmpty)
    let extra = try CLIRunner.run(["controls", "zoom"])
    #expect(extra.status == 2)
  }

  @Test func everyKeyAndOptionOfTheCatalogIsAcceptedEverywhere() throws {
    // One vocabulary: each control of `controls --json` is a --set key, a state-file key and a timeline
    // control; each picker option and each slider's ends and default are values all three accept.
    let listing = try CLIRunner.run(["controls", "--json"])
    let controls = try #require(
      try JSONSerialization.jsonObject(with: Data(listing.standardOutput.utf8)) as? [[String: Any]])
    #expect(controls.count == 9)
    let folder = try CLIRunner.scratchFolder("vocabulary")
    defer { try? FileManager.default.removeItem(at: folder) }
    var checked = 0
    for control in controls {
      let key = try #require(control["identifier"] as? String)
      var values: [String] = (control["options"] as? [String]) ?? []
      for field in ["minimum", "maximum", "defaultValue"] {
        if let number = control[field] as? Double { values.append(String(number)) }
      }
      #expect(!values.isEmpty, "\(key)")
      let jsonKey = try ControlKey(cliName: key).jsonKey
      let isSlider = control["options"] is NSNull || control["options"] == nil
      for value in values {
        let set = try CLIRunner.run(["explain", "--set", "\(key)=\(value)"])
        #expect(set.status == 0, "--set \(key)=\(value): \(set.standardError)")
        let state = folder.appendingPathComponent("state.json")
        let jsonValue = isSlider ? value : "\"\(value)\""
        try Data("{\"\(jsonKey)\": \(jsonValue)}".utf8).write(to: state)
        let file = try CLIRunner.run(["explain", "--state", state.path])
        #expect(file.status == 0, "state \(jsonKey)=\(value): \(file.standardError)")
        let timeline = folder.appendingPathComponent("timeline.jsonl")
        let event =
          isSlider
          ? #"{"time":0,"type":"slide","control":"\#(key)","value":\#(value)}"#
          : #"{"time":0,"type":"select","control":"\#(key)","option":"\#(value)"}"#
        try Data((event + "\n").utf8).write(to: timeline)
        let frames = try CLIRunner.run([
          "frames", "--size", "2x2", "--timeline", timeline.path, "--fps", "1",
        ])
        #expect(frames.status == 0, "timeline \(event): \(frames.standardError)")
        checked += 1
      }
    }
    #expect(checked == 40)
  }

  @Test func listDevicesShowsTheCatalog() throws {
    let result = try CLIRunner.run(["controls", "--list-devices"])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("iphone-16-pro\tiPhone 16 Pro\tCamera Control"))
    #expect(result.standardOutput.contains("webcam\tUSB webcam\tno Camera Control"))
  }

  @Test func oneCatalogEveryDeviceWithACameraControlHasItsControls() throws {
    // Every device `devices` marks with a Camera Control is accepted by `controls --device`, with the
    // same zoom labels as its camera class (the Pro Max has the Pro's cameras).
    let devices = try CLIRunner.run(["devices"])
    #expect(devices.status == 0)
    let withControl = devices.standardOutput.split(separator: "\n").compactMap { line -> String? in
      let columns = line.split(separator: " ", omittingEmptySubsequences: true)
      return columns.contains("yes") ? columns.first.map(String.init) : nil
    }
    #expect(withControl == ["iphone-16-pro-max", "iphone-16-pro", "iphone-16-plus", "iphone-16"])
    #expect(devices.standardOutput.contains("0.5×–25×  1× 5×   -8…8 EV"))
    func zoomRow(_ device: String) throws -> Substring? {
      let result = try CLIRunner.run(["controls", "--device", device])
      #expect(result.status == 0, "\(device): \(result.standardError)")
      return result.standardOutput.split(separator: "\n").first { $0.hasPrefix("zoom ") }
    }
    for device in withControl {
      let row = try zoomRow(device)
      #expect(row?.contains("(labelled 1× … ") == true, "\(device): \(row ?? "")")
    }
    #expect(try zoomRow("iphone-16-pro-max") == zoomRow("iphone-16-pro"))
    let heading = try CLIRunner.run(["controls", "--device", "iPhone 16 Plus"]).standardOutput
    #expect(heading.hasPrefix("iPhone 16 Plus (iphone-16-plus): Camera Control"))
    // Where a device narrows a control's range, the heading says so: the iPhone 16 Plus's digital
    // zoom ends at 10×, the 16 Pro's at 25× (beyond --set's 16), and neither narrows exposure.
    let webcam = try CLIRunner.run(["controls", "--device", "webcam"]).standardOutput
    #expect(
      webcam.contains(
        "This device limits exposure-bias to -2 … 2 (--set takes -8 … 8) and zoom to 1 … 4"))
    #expect(heading.contains("This device limits zoom to 1 … 10 (--set takes 1 … 16)."))
    #expect(
      !(try CLIRunner.run(["controls", "--device", "iphone-16-pro"]).standardOutput)
        .contains("This device limits"))
    // The heading's two lines are two lines, not one with an escaped newline.
    #expect(heading.split(separator: "\n").dropFirst().first?.hasPrefix("Every control") == true)
  }
}
