/// Safe-area insets in points: the edges of a screen that the sensor housing, the Home indicator or the
/// status bar take, which the viewfinder keeps clear of (HIG Layout, "Guides and safe areas").
///
/// Apple publishes no table of insets; the HIG only says to respect them. FrameDial's figures are the
/// values UIKit's `safeAreaInsets` reports for full-screen apps, as widely documented from Simulator, one
/// figure per family (individual models differ by a few points — e.g. notched phones report 44 … 50 pt at
/// the top; FrameDial uses 47):
///
/// | family | portrait top / bottom | landscape left / right / bottom |
/// |---|---|---|
/// | iPhone 16 Pro, 16 Pro Max | 62 / 34 | 62 / 62 / 21 |
/// | other Dynamic Island iPhones | 59 / 34 | 59 / 59 / 21 |
/// | notched iPhones | 47 / 34 | 47 / 47 / 21 |
/// | Home-button iPhones | 20 / 0 (status bar) | 0 / 0 / 0 |
/// | iPads with a Home indicator | 24 / 20 | top 24, bottom 20 |
/// | iPads with a Home button | 20 / 0 | top 20, bottom 0 |
public struct SafeAreaInsets: Sendable, Hashable, Codable {
  /// The top inset.
  public var top: Int
  /// The left inset.
  public var left: Int
  /// The bottom inset.
  public var bottom: Int
  /// The right inset.
  public var right: Int

  /// Creates insets.
  public init(top: Int, left: Int, bottom: Int, right: Int) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// FrameDial's insets for a device of `family` (see the table above); `model` picks the larger
  /// Dynamic Island figures of the iPhone 16 Pro models.
  public static func standard(
    for family: ScreenFamily, model: String, orientation: ScreenOrientation
  ) -> SafeAreaInsets {
    let portrait = orientation == .portrait
    switch family {
    case .iPhoneDynamicIsland:
      let housing = model.hasPrefix("iphone-16-pro") ? 62 : 59
      return portrait
        ? SafeAreaInsets(top: housing, left: 0, bottom: 34, right: 0)
        : SafeAreaInsets(top: 0, left: housing, bottom: 21, right: housing)
    case .iPhoneNotch:
      return portrait
        ? SafeAreaInsets(top: 47, left: 0, bottom: 34, right: 0)
        : SafeAreaInsets(top: 0, left: 47, bottom: 21, right: 47)
    case .iPhoneHomeButton:
      return portrait
        ? SafeAreaInsets(top: 20, left: 0, bottom: 0, right: 0)
        : SafeAreaInsets(top: 0, left: 0, bottom: 0, right: 0)
    case .iPadHomeIndicator:
      return SafeAreaInsets(top: 24, left: 0, bottom: 20, right: 0)
    case .iPadHomeButton:
      return SafeAreaInsets(top: 20, left: 0, bottom: 0, right: 0)
    }
  }
}
