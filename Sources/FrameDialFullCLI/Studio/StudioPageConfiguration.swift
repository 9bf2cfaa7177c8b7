import Controls
import Foundation
import FrameDial
import FrameDialCLI
import JSON

/// What `GET /studio.json` tells the page: the device screen in pixels, where the viewfinder and the
/// Camera Control overlay go on it, the live frame's size, and the controls in overlay order (as
/// `framedial controls --json` describes them, with the state key each one sets).
struct StudioPageConfiguration: Encodable {
  struct Device: Encodable {
    var id: String
    var name: String
    var hasCameraControl: Bool
    var orientation: String
  }

  /// One control: its name (the `--set` key or `temperature`), the JSON state key it sets, how its
  /// scale is spaced (`linear`, `logarithmic` for zoom, `mired` for temperature), the stand-in glyph of
  /// its symbol (as `preview` draws it; nil for none), and its description.
  struct Control: Encodable {
    var name: String
    var jsonKey: String
    var spacing: String
    var glyph: String?
    var description: ControlDescription
  }

  var device: Device
  var screen: ScreenSize
  var viewfinder: PixelRect
  var overlay: PixelRect?
  var frame: ScreenSize
  var controls: [Control]

  /// The configuration for `source` shown on `screen`, whose controls are `model`'s.
  init(source: ViewfinderSource, screen device: ScreenDevice, model: CaptureDeviceModel) throws {
    let layout = source.layout
    self.device = Device(
      id: device.id, name: device.name, hasCameraControl: device.hasCameraControl,
      orientation: layout.orientation.rawValue)
    screen = ScreenSize(width: layout.screen.width, height: layout.screen.height)
    viewfinder = layout.viewfinder
    overlay = layout.overlay
    frame = ScreenSize(width: source.width, height: source.height)
    let standard = try StandardControls(device: CaptureDevice(model: model))
    controls = ControlDescription.describing(standard.all).map { description in
      let name = description.identifier
      return Control(
        name: name, jsonKey: Self.jsonKey(ofControl: name),
        spacing: (ControlKey.control(named: name)?.spacing ?? .linear).rawValue,
        glyph: SymbolGlyph.glyph(for: description.symbol), description: description)
    }
  }

  /// The JSON state key the control named `name` sets (`temperature` sets the white balance).
  static func jsonKey(ofControl name: String) -> String {
    ControlKey.control(named: name)?.key.jsonKey ?? name
  }

  /// The JSON document (``JSONText/Format/canonical``).
  func jsonData() throws -> Data {
    try JSONText.data(try JSONText.Value(encoding: self), .canonical)
  }
}
