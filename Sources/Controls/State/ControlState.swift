import Foundation

/// The values of every control of the standard set: one plain, immutable-by-copy value that crosses
/// threads freely and is the key of the compiled-plan cache. All but `grid` change pixels; the grid is
/// the viewfinder's rule-of-thirds toggle, which only `preview` draws.
///
/// The same vocabulary is used by `--set key=value`, JSON state files, timelines and the Swift API.
/// The default value is the identity: it renders the input bit for bit.
public struct ControlState: Sendable, Hashable {
  /// Exposure bias in EV, −8 … +8: linear light is multiplied by `2^exposureBias`.
  public var exposureBias: Double
  /// Zoom factor, 1 … 16: a window of `1/zoom` of each side, enlarged back to the full size.
  public var zoom: Double
  /// Centre of the zoom window, each coordinate 0 … 1 of the image's width or height.
  public var zoomCenter: ZoomCenter
  /// Contrast around mid-grey on sRGB-encoded values, 0 … 2 (1 leaves the image unchanged).
  public var contrast: Double
  /// Saturation in linear light, 0 … 2 (0 is grey, 1 leaves the image unchanged).
  public var saturation: Double
  /// White balance: as shot, automatic, a named preset, or a colour temperature.
  public var whiteBalance: WhiteBalance
  /// Tint, −150 … +150 (positive is magenta); applies with a preset or kelvin white balance.
  public var tint: Double
  /// A named look.
  public var filter: Filter
  /// The viewfinder's rule-of-thirds grid (drawn by `preview`; never part of a rendered picture).
  public var grid: Bool

  /// Creates a state; every argument defaults to the identity.
  public init(
    exposureBias: Double = 0, zoom: Double = 1, zoomCenter: ZoomCenter = .center,
    contrast: Double = 1, saturation: Double = 1, whiteBalance: WhiteBalance = .none,
    tint: Double = 0, filter: Filter = .none, grid: Bool = false
  ) {
    self.exposureBias = exposureBias
    self.zoom = zoom
    self.zoomCenter = zoomCenter
    self.contrast = contrast
    self.saturation = saturation
    self.whiteBalance = whiteBalance
    self.tint = tint
    self.filter = filter
    self.grid = grid
  }

  /// The identity state: nothing changes.
  public static let identity = ControlState()
}

/// The centre of the zoom window in relative coordinates (0 … 1 on each axis).
public struct ZoomCenter: Sendable, Hashable {
  /// Horizontal position, 0 (left edge) … 1 (right edge).
  public var x: Double
  /// Vertical position, 0 (top edge) … 1 (bottom edge).
  public var y: Double
  /// Creates a centre point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  /// The middle of the image.
  public static let center = ZoomCenter(x: 0.5, y: 0.5)
}

/// White balance choices.
public enum WhiteBalance: Sendable, Hashable {
  /// As shot: no change (the default).
  case none
  /// Grey world, measured on the image (on frames: on a thumbnail, smoothed over time).
  case auto
  /// A named light source.
  case preset(WhiteBalancePreset)
  /// The colour temperature of the scene's light in kelvin, 1667 … 25000.
  case kelvin(Double)
}

/// Named light sources and their colour temperatures (Adobe Camera Raw's values).
public enum WhiteBalancePreset: String, Sendable, Hashable, CaseIterable {
  /// Daylight (5500 K), cloudy (6500 K), shade (7500 K), tungsten (2850 K), fluorescent (3800 K), flash (5500 K).
  case daylight, cloudy, shade, tungsten, fluorescent, flash

  /// The preset's colour temperature in kelvin.
  public var kelvin: Double {
    switch self {
    case .daylight: 5500
    case .cloudy: 6500
    case .shade: 7500
    case .tungsten: 2850
    case .fluorescent: 3800
    case .flash: 5500
    }
  }
}

/// Named looks, in picker order.
public enum Filter: String, Sendable, Hashable, CaseIterable {
  /// No look (the default), then the named looks in picker order.
  case none, mono, tonal, noir, sepia, chrome, fade, instant, process, transfer, vivid
}
