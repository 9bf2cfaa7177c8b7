import Foundation

extension CaptureDeviceModel {
  /// The devices FrameDial knows, in the order `--list-devices` shows them.
  public static let catalog: [CaptureDeviceModel] = [
    iPhone16Pro, iPhone16, iPhone15ProMax, iPhone15Pro, webcam,
  ]

  /// The command-line identifiers of the catalog, in order.
  public static var identifiers: [String] { catalog.map(\.id) }

  /// Every device whose capture figures FrameDial knows: the catalog, with the phones that share a
  /// catalog device's cameras under their own identifier and name (an iPhone 16 Pro Max has the iPhone
  /// 16 Pro's). The screen catalog's phones take their capture figures from here.
  public static let known: [CaptureDeviceModel] =
    catalog + [
      iPhone16Pro.named(id: "iphone-16-pro-max", name: "iPhone 16 Pro Max"),
      iPhone16.named(id: "iphone-16-plus", name: "iPhone 16 Plus"),
    ]

  /// Finds a device by its identifier or its name, ignoring case (`iphone-16-pro-max`, `iPhone 16
  /// Pro`): the one lookup the library and the command line share.
  ///
  /// - Throws: `CatalogError.unknownDevice` listing the known identifiers.
  public static func named(_ identifier: String) throws(CatalogError) -> CaptureDeviceModel {
    let wanted = identifier.lowercased()
    guard let model = known.first(where: { $0.id == wanted || $0.name.lowercased() == wanted })
    else {
      throw .unknownDevice(identifier, known: known.map(\.id))
    }
    return model
  }

  /// iPhone 16 Pro class: triple camera with Camera Control.
  ///
  /// Source: Apple, "iPhone 16 Pro and iPhone 16 Pro Max — Technical Specifications"
  /// (https://www.apple.com/iphone-16-pro/specs/): 48MP Ultra Wide,
  /// 48MP Fusion (wide) and 12MP 5× Telephoto; 0.5×, 1× and 5× optical; digital zoom up to 25×.
  /// As a virtual device the Ultra Wide is factor 1, so the multiplier is 0.5 and the lens switch-overs
  /// are at 2 (wide) and 10 (5× telephoto); 25× shown is factor 50. Exposure bias limits of −8 … +8 EV are
  /// `AVCaptureDevice.minExposureTargetBias`/`maxExposureTargetBias` on current iPhones and the system
  /// exposure slider's range; the maximum of 10 controls is FrameDial's assumption (Apple publishes no
  /// figure).
  public static let iPhone16Pro = CaptureDeviceModel(
    unchecked: "iphone-16-pro", name: "iPhone 16 Pro", supportsControls: true, maxControlsCount: 10,
    zoomRange: 1...50, displayVideoZoomFactorMultiplier: 0.5, switchOverZoomFactors: [2, 10],
    exposureBiasRange: -8...8,
    source: "https://www.apple.com/iphone-16-pro/specs/")

  /// iPhone 16 class: dual camera with Camera Control.
  ///
  /// Source: Apple, "iPhone 16 and iPhone 16 Plus — Technical Specifications"
  /// (https://www.apple.com/iphone-16/specs/): 48MP Fusion (wide) and
  /// 12MP Ultra Wide; 0.5× and 1× optical, 2× from the sensor's centre (no lens switch); digital zoom up
  /// to 10×. As a virtual device: multiplier 0.5, one switch-over at 2, 10× shown is factor 20.
  /// Exposure figures and the control maximum as for `iPhone16Pro`.
  public static let iPhone16 = CaptureDeviceModel(
    unchecked: "iphone-16", name: "iPhone 16", supportsControls: true, maxControlsCount: 10,
    zoomRange: 1...20, displayVideoZoomFactorMultiplier: 0.5, switchOverZoomFactors: [2],
    exposureBiasRange: -8...8,
    source: "https://www.apple.com/iphone-16/specs/")

  /// iPhone 15 Pro class: triple camera without Camera Control (`supportsControls` is false).
  ///
  /// Source: Apple, "iPhone 15 Pro — Technical Specifications" (support.apple.com tech specs):
  /// 12MP Ultra Wide, 48MP Main and 12MP 3× Telephoto; 0.5×, 1× and 3× optical; digital zoom up to 15×.
  /// As a virtual device: multiplier 0.5, switch-overs at 2 and 6, 15× shown is factor 30.
  public static let iPhone15Pro = CaptureDeviceModel(
    unchecked: "iphone-15-pro", name: "iPhone 15 Pro", supportsControls: false, maxControlsCount: 0,
    zoomRange: 1...30, displayVideoZoomFactorMultiplier: 0.5, switchOverZoomFactors: [2, 6],
    exposureBiasRange: -8...8,
    source: "Apple, iPhone 15 Pro Technical Specifications (support.apple.com)")

  /// iPhone 15 Pro Max: triple camera without Camera Control, its telephoto 5× where the iPhone 15 Pro's
  /// is 3×.
  ///
  /// Source: Apple, "iPhone 15 Pro and iPhone 15 Pro Max — Technical Specifications" (support.apple.com
  /// tech specs): 12MP Ultra Wide, 48MP Main and 12MP 5× Telephoto (Pro Max); 0.5×, 1× and 5× optical;
  /// digital zoom up to 25×. As a virtual device: multiplier 0.5, switch-overs at 2 and 10, 25× shown is
  /// factor 50.
  public static let iPhone15ProMax = CaptureDeviceModel(
    unchecked: "iphone-15-pro-max", name: "iPhone 15 Pro Max", supportsControls: false,
    maxControlsCount: 0, zoomRange: 1...50, displayVideoZoomFactorMultiplier: 0.5,
    switchOverZoomFactors: [2, 10], exposureBiasRange: -8...8,
    source: "Apple, iPhone 15 Pro Max Technical Specifications (support.apple.com)")

  /// A plain USB webcam: one fixed lens, no Camera Control.
  ///
  /// Not a specific product: FrameDial's own figures for a generic UVC camera — multiplier 1, no lens
  /// switch-overs, digital zoom up to 4×, exposure compensation −2 … +2 EV.
  public static let webcam = CaptureDeviceModel(
    unchecked: "webcam", name: "USB webcam", supportsControls: false, maxControlsCount: 0,
    zoomRange: 1...4, displayVideoZoomFactorMultiplier: 1, switchOverZoomFactors: [],
    exposureBiasRange: -2...2,
    source: "FrameDial's generic UVC webcam figures")
}

/// A device name that is not in the catalog.
public enum CatalogError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// The identifier is unknown; `known` lists the catalog's identifiers.
  case unknownDevice(String, known: [String])

  /// The message naming the device, the nearest known identifier when one is close, and the known
  /// identifiers.
  public var description: String {
    switch self {
    case .unknownDevice(let name, let known):
      NearestWord.unknown(
        "device", name, among: known,
        known: "the catalog (framedial devices) has: " + known.joined(separator: ", "))
    }
  }

  /// The same text as `description`.
  public var errorDescription: String? { description }
}
