import Controls

/// The screens of the HIG Layout page (see ``ScreenCatalog/source``): lookup by identifier or name, and
/// the listing `framedial devices` prints.
public enum ScreenCatalog {
  /// Every device, in the HIG table's order.
  public static var all: [ScreenDevice] { devices }

  /// The command-line identifiers, in order.
  public static var identifiers: [String] { devices.map(\.id) }

  /// Finds a device by identifier or by its HIG name, ignoring case ("iphone-16-pro", "iPhone 16 Pro").
  ///
  /// - Throws: ``ScreenCatalogError/unknownDevice(_:known:)`` listing every identifier.
  public static func named(_ name: String) throws(ScreenCatalogError) -> ScreenDevice {
    let wanted = name.lowercased()
    guard let device = devices.first(where: { $0.id == wanted || $0.name.lowercased() == wanted })
    else { throw .unknownDevice(name, known: identifiers) }
    return device
  }

  /// Reads `DEVICE[:auto|portrait|landscape]`: the orientation is nil for `auto` or when none is given
  /// (the screen turned to match each picture).
  ///
  /// - Throws: ``ScreenCatalogError`` for an unknown device or orientation.
  public static func screen(_ text: String) throws(ScreenCatalogError) -> (
    ScreenDevice, ScreenOrientation?
  ) {
    guard let colon = text.lastIndex(of: ":") else { return (try named(text), nil) }
    let word = String(text[text.index(after: colon)...])
    let device = try named(String(text[..<colon]))
    if word.lowercased() == "auto" { return (device, nil) }
    guard let orientation = ScreenOrientation(rawValue: word.lowercased()) else {
      throw .unknownOrientation(word)
    }
    return (device, orientation)
  }
}

/// A device or orientation that is not in the catalog.
public enum ScreenCatalogError: Error, Equatable, CustomStringConvertible, Sendable {
  /// No device has this identifier or name.
  case unknownDevice(String, known: [String])
  /// Not `auto`, `portrait` or `landscape`.
  case unknownOrientation(String)

  /// The message, listing what is accepted.
  public var description: String {
    switch self {
    case .unknownDevice(let name, let known):
      CatalogError.unknownDevice(name, known: known).description
    case .unknownOrientation(let word):
      "unknown orientation '\(word)'; use auto, portrait or landscape"
    }
  }
}
