import Controls

/// Every device FrameDial knows, in one list: the screens of the HIG's Layout table, each carrying its
/// capture figures (zoom, lens switch-overs, exposure, Camera Control) when FrameDial has them, then the
/// devices that are only a camera (a USB webcam). `framedial devices` lists it; `--device` takes any of
/// its identifiers wherever a command needs a screen or a camera.
public enum DeviceCatalog {
  /// Capture devices that have no screen entry, in `CaptureDeviceModel/catalog` order.
  public static var cameraOnly: [CaptureDeviceModel] {
    CaptureDeviceModel.catalog.filter { !ScreenCatalog.identifiers.contains($0.id) }
  }

  /// Every device with capture figures: the screens that have them, in the HIG's order, then the
  /// camera-only devices.
  public static var captureDevices: [CaptureDeviceModel] {
    ScreenCatalog.all.compactMap(\.capture) + cameraOnly
  }

  /// The identifiers of every device, screens first.
  public static var identifiers: [String] { ScreenCatalog.identifiers + cameraOnly.map(\.id) }

  /// The capture figures of the device named `name` (its identifier or its name, ignoring case), found
  /// by `CaptureDeviceModel.named(_:)`; the errors also know the screens.
  ///
  /// - Throws: ``DeviceCatalogError`` for an unknown device, or a screen FrameDial has no capture
  ///   figures for.
  public static func capture(named name: String) throws(DeviceCatalogError) -> CaptureDeviceModel {
    if let capture = try? CaptureDeviceModel.named(name) { return capture }
    guard let screen = try? ScreenCatalog.named(name) else {
      throw .unknownDevice(name, known: identifiers)
    }
    throw .noCaptureFigures(screen.id, withFigures: captureDevices.map(\.id))
  }
}

/// A device the catalog cannot give capture figures for.
public enum DeviceCatalogError: Error, Equatable, CustomStringConvertible, Sendable {
  /// No device has this identifier or name.
  case unknownDevice(String, known: [String])
  /// The device is a screen of the catalog, without capture figures.
  case noCaptureFigures(String, withFigures: [String])

  /// The message, listing what is accepted.
  public var description: String {
    switch self {
    case .unknownDevice(let name, let known):
      CatalogError.unknownDevice(name, known: known).description
    case .noCaptureFigures(let id, let withFigures):
      "'\(id)' is a screen in the catalog, but FrameDial has no camera figures for it; devices with "
        + "them: \(withFigures.joined(separator: ", "))"
    }
  }
}
