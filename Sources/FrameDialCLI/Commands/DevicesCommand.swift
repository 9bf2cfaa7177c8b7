import Controls
import Foundation
import FrameDial
import JSON

/// `framedial devices`: the device catalog: screens (HIG Layout) for `--fit` and `preview`, with each
/// device's camera figures (Camera Control, zoom, lenses, exposure) where FrameDial has them.
enum DevicesCommand: ListingCommand {
  static let name = "devices"
  static let summary =
    "List the devices: screens for \(FitOptions.fit) and preview, and camera figures for controls, preview and sweep."
  /// `--json`.
  static let json = JSONOption.flag("one JSON array of the devices on standard output")

  static func printJSON(console: Console) throws {
    console.outJSON(
      try JSONText.string(
        .array(
          ScreenCatalog.all.map { jsonValue(id: $0.id, name: $0.name, screen: $0, $0.capture) }
            + DeviceCatalog.cameraOnly.map {
              jsonValue(id: $0.id, name: $0.name, screen: nil, $0)
            }), .line))
  }

  static func printText(console: Console) throws {
    var rows = ScreenCatalog.all.map { device in
      [
        device.id, device.name, "\(device.points.width)×\(device.points.height)",
        "@\(device.scale)x", "\(device.pixels.width)×\(device.pixels.height)",
        sizeClasses(device.portraitSizeClasses) + (device.sizeClassesListed ? "" : "*"),
        sizeClasses(device.landscapeSizeClasses) + (device.sizeClassesListed ? "" : "*"),
      ] + cameraColumns(device.capture)
    }
    rows += DeviceCatalog.cameraOnly.map { model in
      [model.id, model.name, "-", "-", "-", "-", "-"] + cameraColumns(model)
    }
    let table = TextTable(
      header: [
        "DEVICE", "NAME", "POINTS", "SCALE", "PIXELS", "PORTRAIT", "LANDSCAPE", "CAMERA CONTROL",
        "ZOOM", "LENSES", "EXPOSURE",
      ], rows: rows)
    for line in table.lines { console.out(line) }
    console.out("")
    console.out(
      "Points and pixels are portrait; size classes are width×height (C compact, R regular) for a "
        + "full-screen app; * not in the HIG's size-class table, taken from the same screen's row.")
    console.out(
      "Zoom is as the overlay labels it, lenses are where the camera switches lens, exposure is the "
        + "device's range in EV (the exposure slider uses its recommended part); - where FrameDial has "
        + "no camera figures.")
    console.out("Source: \(ScreenCatalog.source).")
  }

  /// One device as JSON: the same facts as a row of the table, `null` where the device has none.
  private static func jsonValue(
    id: String, name: String, screen: ScreenDevice?, _ camera: CaptureDeviceModel?
  ) -> JSONText.Value {
    func size(_ size: ScreenSize?) -> JSONText.Value {
      size.map { ["width": JSONText.Value($0.width), "height": JSONText.Value($0.height)] } ?? nil
    }
    return [
      "id": JSONText.Value(id), "name": JSONText.Value(name), "points": size(screen?.points),
      "pixels": size(screen?.pixels), "scale": JSONText.Value(screen?.scale),
      "portraitSizeClasses": JSONText.Value(screen.map { sizeClasses($0.portraitSizeClasses) }),
      "landscapeSizeClasses": JSONText.Value(screen.map { sizeClasses($0.landscapeSizeClasses) }),
      "cameraControl": JSONText.Value(camera?.supportsControls ?? false),
      "zoomLabels": camera.map { model in
        JSONText.Value(
          [model.zoomRange.lowerBound, model.zoomRange.upperBound].map {
            model.zoomLabel(forFactor: $0)
          })
      } ?? nil,
      "lensSwitchOvers": camera.map { model in
        JSONText.Value(model.switchOverZoomFactors.map { model.zoomLabel(forFactor: $0) })
      } ?? nil,
      "exposureBiasRange": camera.map {
        JSONText.Value([$0.exposureBiasRange.lowerBound, $0.exposureBiasRange.upperBound])
      } ?? nil,
    ]
  }

  /// Camera Control, zoom range, lens switch-overs and exposure range, or dashes without figures.
  private static func cameraColumns(_ model: CaptureDeviceModel?) -> [String] {
    guard let model else { return ["-", "-", "-", "-"] }
    let zoom =
      model.zoomLabel(forFactor: model.zoomRange.lowerBound) + "–"
      + model.zoomLabel(forFactor: model.zoomRange.upperBound)
    let lenses = model.switchOverZoomFactors.map { model.zoomLabel(forFactor: $0) }
    let exposure = model.exposureBiasRange
    return [
      model.supportsControls ? "yes" : "-", zoom,
      lenses.isEmpty ? "-" : lenses.joined(separator: " "),
      "\(plain(exposure.lowerBound))…\(plain(exposure.upperBound)) EV",
    ]
  }

  private static func plain(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }

  private static func sizeClasses(_ classes: SizeClasses) -> String {
    "\(classes.width == .compact ? "C" : "R")×\(classes.height == .compact ? "C" : "R")"
  }
}
