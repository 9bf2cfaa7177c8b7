import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

@Suite struct PreviewTests {
  let previews = PreviewRenderer()

  func picture() throws -> Image {
    try previews.picture(
      at: RenderFixtures.sample("rocket.jpg"), state: ControlState(exposureBias: 0.3))
  }

  func overlay(_ control: String, _ state: ControlState) throws -> OverlayContent? {
    try ControlSelection(control, device: CaptureDeviceModel.named("iphone-16-pro"))
      .overlay(for: state)
  }

  @Test(arguments: ["iphone-16-pro", "iphone-16", "ipad-pro-11", "iphone-se-4"])
  func previewIsTheDevicesPixelsInBothOrientations(_ id: String) throws {
    let device = try ScreenCatalog.named(id)
    let content = try overlay("exposure-bias", ControlState(exposureBias: 0.3))
    for orientation in ScreenOrientation.allCases {
      let options = PreviewOptions(
        device: device, orientation: orientation, overlay: content, grid: true)
      let (image, layout) = try previews.compose(picture(), options: options)
      let size = device.pixels(in: orientation)
      #expect(image.width == size.width && image.height == size.height)
      #expect(image.bands == 3)
      #expect(layout.screen.width == size.width)
      // The viewfinder keeps the picture's aspect ratio and stays in the safe area.
      let view = layout.viewfinder
      #expect(abs(Double(view.width) / Double(view.height) - 640.0 / 427.0) < 0.01)
      #expect(view.x >= layout.safeArea.x && view.maxX <= layout.safeArea.maxX)
      #expect(view.y >= layout.safeArea.y && view.maxY <= layout.safeArea.maxY)
      #expect(view.width == layout.safeArea.width || view.height == layout.safeArea.height)
      #expect((layout.overlay != nil) == device.hasCameraControl)
    }
  }

  @Test func overlayRegionIsBesideTheControlAndOffTheCentre() throws {
    let device = try ScreenCatalog.named("iphone-16-pro")
    let portrait = PreviewLayout.make(
      device: device, orientation: .portrait, imageWidth: 3, imageHeight: 4)
    let region = try #require(portrait.overlay)
    #expect(region == PixelRect(x: 1206 - 450, y: 1626 - 450, width: 450, height: 900))
    #expect(region.maxX == 1206)
    #expect(region.contains(1205, Int(2622 * 0.62)))
    #expect(region.y > 2622 / 2 - 450)
    let landscape = PreviewLayout.make(
      device: device, orientation: .landscape, imageWidth: 4, imageHeight: 3)
    let band = try #require(landscape.overlay)
    #expect(band.y == 0 && band.height == 124 * 3 && band.width == 300 * 3)
    #expect(band.contains(Int(2622 * 0.62), 0))
    for layout in [portrait, landscape] {
      let view = layout.viewfinder
      let overlay = try #require(layout.overlay)
      #expect(!overlay.contains(view.x + view.width / 2, view.y + view.height / 2))
      #expect(overlay.x >= 0 && overlay.maxX <= layout.screen.width)
    }
  }

  @Test(arguments: [ScreenOrientation.portrait, .landscape])
  func overlayChangesPixelsOnlyInsideItsRegion(_ orientation: ScreenOrientation) throws {
    let device = try ScreenCatalog.named("iphone-16-pro")
    let shown = try picture()
    for (control, state) in [
      ("zoom", ControlState(zoom: 3)), ("filter", ControlState(filter: .mono)),
    ] {
      let content = try #require(try overlay(control, state))
      let plain = try previews.compose(
        shown, options: PreviewOptions(device: device, orientation: orientation, grid: true))
      let drawn = try previews.compose(
        shown,
        options: PreviewOptions(
          device: device, orientation: orientation, overlay: content, grid: true))
      #expect(plain.layout == drawn.layout)
      let region = try #require(drawn.layout.overlay)
      let a = try plain.image.pixelBytes()
      let b = try drawn.image.pixelBytes()
      let width = drawn.image.width
      var outsideDiffers = 0
      var insideDiffers = 0
      for index in stride(from: 0, to: a.count, by: 3)
      where a[index] != b[index] || a[index + 1] != b[index + 1] || a[index + 2] != b[index + 2] {
        let pixel = index / 3
        if region.contains(pixel % width, pixel / width) {
          insideDiffers += 1
        } else {
          outsideDiffers += 1
        }
      }
      #expect(outsideDiffers == 0, "\(control) \(orientation)")
      #expect(insideDiffers > region.width * region.height / 4, "\(control) \(orientation)")
    }
  }

  @Test func aWrappedTitlePushesTheValueDownInsteadOfUnderIt() throws {
    // "White Balance" wraps onto two lines in the portrait overlay of an iPhone 16 Pro.
    let content = try #require(try overlay("white-balance", ControlState(whiteBalance: .auto)))
    let painter = OverlayPainter(
      content: content, orientation: .portrait, scale: 3, width: 150 * 3, height: 300 * 3)
    let layers = try painter.layers()
    // Layers 0 and 1 are the panel and the bezel mark, then the glyph, the title and the value.
    let title = layers[3]
    let value = layers[4]
    #expect(title.image.height > 16 * 3 * 2 - 10, "the title wraps: \(title.image.height)")
    #expect(value.y >= title.y + title.image.height, "value at \(value.y), title ends lower")
    // The options start below the value.
    #expect(layers[5...].allSatisfy { $0.y >= value.y + value.image.height })
  }

  @Test(arguments: [ScreenOrientation.portrait, .landscape])
  func everyProminentTemperatureKeepsItsLabel(_ orientation: ScreenOrientation) throws {
    // Five prominent temperatures, three of them within 2000 K: crowded labels move to other lanes.
    let content = try #require(
      try overlay("temperature", ControlState(whiteBalance: .kelvin(4500))))
    guard case .scale(let scale) = content.body else {
      Issue.record("temperature has no scale")
      return
    }
    #expect(scale.marks.count == 5)
    var bare = content
    bare.body = .scale(OverlayContent.Scale(range: scale.range, value: scale.value, marks: []))
    let size = orientation == .portrait ? (150, 300) : (300, 120)
    func layers(_ content: OverlayContent) throws -> Int {
      try OverlayPainter(
        content: content, orientation: orientation, scale: 3, width: size.0 * 3,
        height: size.1 * 3
      ).layers().count
    }
    // Each mark adds its tick and its label.
    #expect(try layers(content) == layers(bare) + 2 * scale.marks.count)
  }

  @Test func labelLanesKeepTheirGapAndUseTheFirstLaneThatFits() {
    let lanes = LabelLanes.assign(spans: [0...10, 12...20, 15...25, 18...30, 26...40], gap: 2)
    #expect(lanes == [0, 0, 1, nil, 0])
    #expect(LabelLanes.assign(spans: [0...10, 5...9, 6...9], gap: 0, lanes: 3) == [0, 1, 2])
  }

  @Test func standardSymbolsDrawAGlyphNeverTheirName() throws {
    let controls = try StandardControls(
      device: CaptureDevice(model: try CaptureDeviceModel.named("iphone-16-pro")))
    for control in controls.all {
      let glyph = SymbolGlyph.glyph(for: control.symbolName)
      #expect(glyph?.count == 1, "\(control.title): \(control.symbolName)")
    }
    // A symbol FrameDial has no glyph for draws nothing.
    #expect(SymbolGlyph.glyph(for: "camera.aperture") == nil)
  }

  @Test func overlayContentComesFromTheControls() throws {
    let exposure = try #require(try overlay("ev", ControlState(exposureBias: 0.7)))
    #expect(exposure.title == "Exposure")
    #expect(exposure.symbolName == "plusminus.circle")
    #expect(exposure.valueText == "+0.7 EV")
    guard case .scale(let scale) = exposure.body else {
      Issue.record("exposure has no scale")
      return
    }
    #expect(scale.marks == [OverlayContent.Mark(value: 0, label: "0.0 EV")])
    #expect(scale.range == -8...8)
    let zoom = try #require(try overlay("zoom", ControlState(zoom: 2)))
    // The picture enlarged twice reads 2×, as on the phone; the marks are 1× and the 5× telephoto.
    #expect(zoom.valueText == "2×")
    if case .scale(let zoomScale) = zoom.body {
      #expect(zoomScale.marks.map(\.label) == ["1×", "5×"])
      #expect(zoomScale.spacing == .logarithmic)
      #expect(abs(zoomScale.position(of: 4) - 2 * zoomScale.position(of: 2)) < 1e-9)
    }
    // Temperature is spaced by mired: equal mired steps, equal lengths; 1667 K at 0, 25000 K at 1.
    let temperature = try #require(
      try overlay("temperature", ControlState(whiteBalance: .kelvin(5000))))
    if case .scale(let warmth) = temperature.body {
      #expect(warmth.spacing == .mired)
      let mired = { (kelvin: Double) in 1e6 / kelvin }
      let expected = (mired(1667) - mired(5000)) / (mired(1667) - mired(25000))
      #expect(abs(warmth.position(of: 5000) - expected) < 1e-12)
      #expect(warmth.position(of: 1667) == 0 && warmth.position(of: 25000) == 1)
    } else {
      Issue.record("temperature has no scale")
    }
    let filter = try #require(try overlay("filter", ControlState(filter: .noir)))
    #expect(filter.valueText == "Noir")
    #expect(filter.body == .options(Filter.allCases.map(\.rawValue.capitalized), selected: 3))
    #expect(throws: ControlSelectionError.self) {
      try ControlSelection("iso", device: CaptureDeviceModel.named("iphone-16-pro"))
    }
    #expect(
      "\(ControlSelectionError.unknownControl("tnt", known: ControlSelection.namesDescription))"
        == "unknown control 'tnt'; did you mean 'tint'? use one of exposure-bias, zoom, contrast, "
        + "saturation, white-balance, temperature, tint, filter, grid (aliases ev, wb)")
  }
}
