import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

@Suite struct ScreenFitTests {
  static let devices = [
    "iphone-16-pro", "iphone-se-4", "ipad-pro-12.9", "iphone-11", "ipad-mini-8.3",
  ]

  /// The expected output size, computed from the catalog's pixels and the input size.
  func expected(
    _ device: ScreenDevice, _ orientation: ScreenOrientation, _ mode: ScreenFit.Mode,
    input: (Int, Int)
  ) -> (Int, Int) {
    let (portraitW, portraitH) = (device.pixels.width, device.pixels.height)
    let (w, h) = orientation == .portrait ? (portraitW, portraitH) : (portraitH, portraitW)
    if mode == .cover { return (w, h) }
    let widthLimits = Double(input.0) / Double(input.1) > Double(w) / Double(h)
    return widthLimits
      ? (w, Int((Double(input.1) * Double(w) / Double(input.0)).rounded()))
      : (Int((Double(input.0) * Double(h) / Double(input.1)).rounded()), h)
  }

  @Test(arguments: devices)
  func inMemoryFitsMatchTheCatalogForBothOrientationsAndModes(_ id: String) throws {
    let device = try ScreenCatalog.named(id)
    for input in [(300, 200), (200, 300), (64, 64)] {
      let image = try RenderFixtures.patch([90, 140, 200], width: input.0, height: input.1)
      for orientation in ScreenOrientation.allCases {
        for mode in ScreenFit.Mode.allCases {
          let fitted = try ScreenFit(device: device, orientation: orientation, mode: mode)
            .applied(to: image)
          let want = expected(device, orientation, mode, input: input)
          #expect(
            fitted.width == want.0 && fitted.height == want.1,
            "\(id) \(orientation) \(mode) \(input): \(fitted.width)×\(fitted.height)")
          let pixels = try fitted.pixelBytes()
          #expect(pixels.count == want.0 * want.1 * 3)
        }
      }
    }
  }

  @Test func renderedFilesAreSizedForTheScreen() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = RenderFixtures.sample("rocket.jpg")  // 640 × 427
    for (id, orientation, mode) in [
      ("iphone-16-pro", ScreenOrientation.portrait, ScreenFit.Mode.cover),
      ("iphone-16-pro", .landscape, .contain),
      ("ipad-pro-11", .landscape, .cover),
      ("iphone-se-4", .portrait, .contain),
    ] {
      let device = try ScreenCatalog.named(id)
      let output = folder.appendingPathComponent("\(id)-\(orientation)-\(mode).jpg").path
      var options = StillOptions()
      options.fit = ScreenFit(device: device, orientation: orientation, mode: mode)
      let result = try StillRenderer().renderFile(
        at: input, to: output, state: ControlState(exposureBias: 0.5), options: options)
      let want = expected(device, orientation, mode, input: (640, 427))
      let written = try Image(contentsOf: output)
      #expect(result.width == want.0 && result.height == want.1, "\(id) \(orientation) \(mode)")
      #expect(written.width == want.0 && written.height == want.1)
    }
  }

  @Test func automaticOrientationTurnsTheScreenToMatchEachPicture() throws {
    let device = try ScreenCatalog.named("iphone-16-pro")  // 1206 × 2622 portrait
    let (parsed, orientation) = try ScreenCatalog.screen("iphone-16-pro")
    #expect(parsed.id == device.id && orientation == nil)
    #expect(try ScreenCatalog.screen("iphone-16-pro:AUTO").1 == nil)
    let auto = ScreenFit(device: device, orientation: orientation)
    #expect(auto.turnsToMatch)
    // Landscape, portrait and square pictures, cover and contain.
    for (input, mode, want) in [
      ((300, 200), ScreenFit.Mode.cover, (2622, 1206)),
      ((200, 300), .cover, (1206, 2622)),
      ((64, 64), .cover, (1206, 2622)),
      ((4000, 3000), .contain, (1608, 1206)),
      ((3000, 4000), .contain, (1206, 1608)),
    ] {
      var fit = auto
      fit.mode = mode
      let image = try RenderFixtures.patch([90, 140, 200], width: input.0, height: input.1)
      let fitted = try fit.applied(to: image)
      #expect(fitted.width == want.0 && fitted.height == want.1, "\(input) \(mode)")
      let size = fit.outputSize(inputWidth: input.0, inputHeight: input.1)
      #expect(size.width == want.0 && size.height == want.1)
    }
    // Held portrait, a landscape picture becomes a portrait strip of its centre.
    let held = ScreenFit(device: device, orientation: .portrait)
    #expect(!held.turnsToMatch)
    let strip = try held.applied(
      to: RenderFixtures.patch([90, 140, 200], width: 300, height: 200))
    #expect(strip.width == 1206 && strip.height == 2622)
    #expect(throws: ScreenCatalogError.unknownOrientation("sideways")) {
      try ScreenCatalog.screen("iphone-16:sideways")
    }
    #expect(
      ScreenCatalogError.unknownOrientation("x").description.contains("auto, portrait or landscape")
    )
  }

  @Test func coverCropsTheCentre() throws {
    // Left third red, middle green, right third blue: a cover fit to a tall screen keeps the green.
    var pixels: [UInt8] = []
    for _ in 0..<60 {
      for x in 0..<90 { pixels += x < 30 ? [255, 0, 0] : (x < 60 ? [0, 255, 0] : [0, 0, 255]) }
    }
    let image = try Image.fromPixels(pixels, width: 90, height: 60, bands: 3)
    let fitted = try ScreenFit(width: 20, height: 60, mode: .cover).applied(to: image)
    #expect(fitted.width == 20 && fitted.height == 60)
    let bytes = try fitted.pixelBytes()
    let greens = stride(from: 0, to: bytes.count, by: 3).filter { bytes[$0 + 1] > 200 }
    #expect(greens.count == 20 * 60)
  }

  @Test func catalogNamesAndErrors() throws {
    #expect(
      try ScreenCatalog.named("iPhone 16 Pro").pixels == ScreenSize(width: 1206, height: 2622))
    let (device, orientation) = try ScreenCatalog.screen("iphone-16:landscape")
    #expect(orientation == .landscape)
    #expect(device.pixels(in: .landscape) == ScreenSize(width: 2556, height: 1179))
    #expect(device.hasCameraControl)
    #expect(try !ScreenCatalog.named("iphone-15-pro").hasCameraControl)
    #expect(throws: ScreenCatalogError.self) { try ScreenCatalog.named("pixel-9") }
    #expect(throws: ScreenCatalogError.unknownOrientation("sideways")) {
      try ScreenCatalog.screen("iphone-16:sideways")
    }
    #expect(Set(ScreenCatalog.identifiers).count == ScreenCatalog.all.count)
    #expect(ScreenCatalog.all.count == 49)
  }

  @Test func everyScreensCameraIsTheOneLookupsAndTheCLIsDeviceIsTheSame() throws {
    let withCameras = ScreenCatalog.all.filter { $0.capture != nil }
    #expect(
      withCameras.map(\.id) == [
        "iphone-16-pro-max", "iphone-16-pro", "iphone-16-plus", "iphone-16", "iphone-15-pro-max",
        "iphone-15-pro",
      ])
    for screen in withCameras {
      #expect(screen.capture == (try CaptureDeviceModel.named(screen.id)))
      #expect(try DeviceCatalog.capture(named: screen.name) == CaptureDeviceModel.named(screen.id))
    }
    #expect(try DeviceCatalog.capture(named: "webcam") == .webcam)
    let unknown = "\(DeviceCatalogError.unknownDevice("pixel-9", known: ["pixel-8"]))"
    #expect(unknown == "\(CatalogError.unknownDevice("pixel-9", known: ["pixel-8"]))")
    #expect(
      unknown
        == "unknown device 'pixel-9'; did you mean 'pixel-8'? the catalog (framedial devices) has: "
        + "pixel-8")
  }
}
