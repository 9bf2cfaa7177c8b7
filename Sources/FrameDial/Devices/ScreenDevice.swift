import Controls

/// How a device is held.
public enum ScreenOrientation: String, Sendable, Hashable, CaseIterable, Codable {
  /// Upright: the short edge at the top.
  case portrait
  /// On its side. For a phone with a Camera Control, FrameDial's landscape is the phone turned a quarter
  /// anticlockwise, so the Camera Control (right side in portrait) is on the top edge.
  case landscape
}

/// A horizontal or vertical size class.
public enum SizeClass: String, Sendable, Hashable, Codable {
  /// A smaller dimension (a phone's width in portrait).
  case compact
  /// A larger dimension.
  case regular
}

/// The size classes of a full-screen app in one orientation.
public struct SizeClasses: Sendable, Hashable, Codable {
  /// The horizontal size class.
  public var width: SizeClass
  /// The vertical size class.
  public var height: SizeClass

  /// Creates a pair of size classes.
  public init(width: SizeClass, height: SizeClass) {
    self.width = width
    self.height = height
  }

  /// "compact width, regular height".
  public var description: String { "\(width.rawValue) width, \(height.rawValue) height" }
}

/// A width and a height (points or pixels).
public struct ScreenSize: Sendable, Hashable, Codable {
  /// The width.
  public var width: Int
  /// The height.
  public var height: Int

  /// Creates a size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The same size turned a quarter (width and height swapped).
  public var turned: ScreenSize { ScreenSize(width: height, height: width) }
}

/// What kind of device a screen belongs to; decides the safe-area figures (see ``SafeAreaInsets``).
public enum ScreenFamily: String, Sendable, Hashable, Codable {
  /// An iPhone with a Dynamic Island.
  case iPhoneDynamicIsland = "iphone-dynamic-island"
  /// An iPhone with a notch (sensor housing) and a Home indicator.
  case iPhoneNotch = "iphone-notch"
  /// An iPhone or iPod touch with a Home button.
  case iPhoneHomeButton = "iphone-home-button"
  /// An iPad with a Home indicator (no Home button).
  case iPadHomeIndicator = "ipad-home-indicator"
  /// An iPad with a Home button.
  case iPadHomeButton = "ipad-home-button"
}

/// One iPhone or iPad screen of the HIG Layout page's "iOS, iPadOS device screen dimensions" table.
public struct ScreenDevice: Sendable, Hashable, Identifiable {
  /// The command-line identifier (`iphone-16-pro`, `ipad-pro-12.9`).
  public let id: String
  /// The model name as the HIG writes it ("iPhone 16 Pro", "12.9” iPad Pro").
  public let name: String
  /// The screen in points, portrait.
  public let points: ScreenSize
  /// The UIKit scale factor (pixels per point).
  public let scale: Int
  /// The screen in pixels, portrait.
  public let pixels: ScreenSize
  /// Full-screen size classes in portrait.
  public let portraitSizeClasses: SizeClasses
  /// Full-screen size classes in landscape.
  public let landscapeSizeClasses: SizeClasses
  /// Whether the size classes are the HIG's row for this model (false: taken from the row of the same
  /// screen size, because the size-class table has no row for it).
  public let sizeClassesListed: Bool
  /// The kind of device, which decides its safe areas.
  public let family: ScreenFamily
  /// The device's capture figures (zoom range and lens switch-overs, exposure range, Camera Control),
  /// when FrameDial has them: the same entry of the catalog carries the screen and the camera.
  public let capture: CaptureDeviceModel?

  /// Whether the device has a Camera Control (iPhone 16 models, HIG "Camera Control").
  public var hasCameraControl: Bool { capture?.supportsControls == true }

  /// Creates a catalog entry.
  public init(
    id: String, name: String, points: ScreenSize, scale: Int, pixels: ScreenSize,
    portrait: SizeClasses, landscape: SizeClasses, sizeClassesListed: Bool = true,
    family: ScreenFamily, capture: CaptureDeviceModel? = nil
  ) {
    self.id = id
    self.name = name
    self.points = points
    self.scale = scale
    self.pixels = pixels
    self.portraitSizeClasses = portrait
    self.landscapeSizeClasses = landscape
    self.sizeClassesListed = sizeClassesListed
    self.family = family
    self.capture = capture
  }

  /// The screen in pixels held in `orientation`.
  public func pixels(in orientation: ScreenOrientation) -> ScreenSize {
    orientation == .portrait ? pixels : pixels.turned
  }

  /// The screen in points held in `orientation`.
  public func points(in orientation: ScreenOrientation) -> ScreenSize {
    orientation == .portrait ? points : points.turned
  }

  /// The size classes held in `orientation`.
  public func sizeClasses(in orientation: ScreenOrientation) -> SizeClasses {
    orientation == .portrait ? portraitSizeClasses : landscapeSizeClasses
  }

  /// The safe-area insets, in points, held in `orientation`.
  public func safeArea(in orientation: ScreenOrientation) -> SafeAreaInsets {
    SafeAreaInsets.standard(for: family, model: id, orientation: orientation)
  }
}
