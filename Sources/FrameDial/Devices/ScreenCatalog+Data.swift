import Controls

extension ScreenCatalog {
  /// Where the figures come from.
  public static let source =
    "Apple Human Interface Guidelines, Layout, \"Specifications\": iOS, iPadOS device screen dimensions "
    + "and device size classes (https://developer.apple.com/design/human-interface-guidelines/layout, "
    + "change log of September 9, 2024); Camera Control models from the HIG \"Camera Control\" page"

  /// Every iPhone, iPod touch and iPad of the HIG's screen-dimension table, in its order: points and
  /// pixels in portrait, the UIKit scale factor (the HIG notes it may differ from the native one, so
  /// pixels are not always points × scale), and full-screen size classes in portrait and landscape.
  /// Models missing from the size-class table take the row of the same screen (`sizeClassesListed`
  /// false): every iPad is regular × regular full screen; iPhone 6 and 6 Plus as 6s and 6s Plus.
  static let devices: [ScreenDevice] = [
    pad("ipad-pro-12.9", "12.9” iPad Pro", 1024, 1366, 2048, 2732, .iPadHomeIndicator),
    pad("ipad-pro-11", "11” iPad Pro", 834, 1194, 1668, 2388, .iPadHomeIndicator),
    pad("ipad-pro-10.5", "10.5” iPad Pro", 834, 1194, 1668, 2388, .iPadHomeButton),
    pad("ipad-pro-9.7", "9.7” iPad Pro", 768, 1024, 1536, 2048, .iPadHomeButton, listed: false),
    pad(
      "ipad-mini-8.3", "8.3” iPad mini", 744, 1133, 1488, 2266, .iPadHomeIndicator, listed: false),
    pad("ipad-mini-7.9", "7.9” iPad mini", 768, 1024, 1536, 2048, .iPadHomeButton),
    pad(
      "ipad-air-10.9", "10.9” iPad Air", 820, 1180, 1640, 2360, .iPadHomeIndicator, listed: false),
    pad("ipad-air-10.5", "10.5” iPad Air", 834, 1112, 1668, 2224, .iPadHomeButton, listed: false),
    pad("ipad-air-9.7", "9.7” iPad Air", 768, 1024, 1536, 2048, .iPadHomeButton, listed: false),
    pad("ipad-10.2", "10.2” iPad", 810, 1080, 1620, 2160, .iPadHomeButton, listed: false),
    pad("ipad-9.7", "9.7” iPad", 768, 1024, 1536, 2048, .iPadHomeButton),
    phone(
      "iphone-16-pro-max", "iPhone 16 Pro Max", 440, 956, 3, 1320, 2868, wide: true,
      .iPhoneDynamicIsland),
    phone(
      "iphone-16-pro", "iPhone 16 Pro", 402, 874, 3, 1206, 2622, wide: false,
      .iPhoneDynamicIsland),
    phone(
      "iphone-16-plus", "iPhone 16 Plus", 430, 932, 3, 1290, 2796, wide: true,
      .iPhoneDynamicIsland),
    phone(
      "iphone-16", "iPhone 16", 393, 852, 3, 1179, 2556, wide: false, .iPhoneDynamicIsland),
    phone(
      "iphone-15-pro-max", "iPhone 15 Pro Max", 430, 932, 3, 1290, 2796, wide: true,
      .iPhoneDynamicIsland),
    phone(
      "iphone-15-pro", "iPhone 15 Pro", 393, 852, 3, 1179, 2556, wide: false, .iPhoneDynamicIsland),
    phone(
      "iphone-15-plus", "iPhone 15 Plus", 430, 932, 3, 1290, 2796, wide: true, .iPhoneDynamicIsland),
    phone("iphone-15", "iPhone 15", 393, 852, 3, 1179, 2556, wide: false, .iPhoneDynamicIsland),
    phone(
      "iphone-14-pro-max", "iPhone 14 Pro Max", 430, 932, 3, 1290, 2796, wide: true,
      .iPhoneDynamicIsland),
    phone(
      "iphone-14-pro", "iPhone 14 Pro", 393, 852, 3, 1179, 2556, wide: false, .iPhoneDynamicIsland),
    phone("iphone-14-plus", "iPhone 14 Plus", 428, 926, 3, 1284, 2778, wide: true, .iPhoneNotch),
    phone("iphone-14", "iPhone 14", 390, 844, 3, 1170, 2532, wide: false, .iPhoneNotch),
    phone(
      "iphone-13-pro-max", "iPhone 13 Pro Max", 428, 926, 3, 1284, 2778, wide: true, .iPhoneNotch),
    phone("iphone-13-pro", "iPhone 13 Pro", 390, 844, 3, 1170, 2532, wide: false, .iPhoneNotch),
    phone("iphone-13", "iPhone 13", 390, 844, 3, 1170, 2532, wide: false, .iPhoneNotch),
    phone("iphone-13-mini", "iPhone 13 mini", 375, 812, 3, 1125, 2436, wide: false, .iPhoneNotch),
    phone(
      "iphone-12-pro-max", "iPhone 12 Pro Max", 428, 926, 3, 1284, 2778, wide: true, .iPhoneNotch),
    phone("iphone-12-pro", "iPhone 12 Pro", 390, 844, 3, 1170, 2532, wide: false, .iPhoneNotch),
    phone("iphone-12", "iPhone 12", 390, 844, 3, 1170, 2532, wide: false, .iPhoneNotch),
    phone("iphone-12-mini", "iPhone 12 mini", 375, 812, 3, 1125, 2436, wide: false, .iPhoneNotch),
    phone(
      "iphone-11-pro-max", "iPhone 11 Pro Max", 414, 896, 3, 1242, 2688, wide: true, .iPhoneNotch),
    phone("iphone-11-pro", "iPhone 11 Pro", 375, 812, 3, 1125, 2436, wide: false, .iPhoneNotch),
    phone("iphone-11", "iPhone 11", 414, 896, 2, 828, 1792, wide: true, .iPhoneNotch),
    phone("iphone-xs-max", "iPhone XS Max", 414, 896, 3, 1242, 2688, wide: true, .iPhoneNotch),
    phone("iphone-xs", "iPhone XS", 375, 812, 3, 1125, 2436, wide: false, .iPhoneNotch),
    phone("iphone-xr", "iPhone XR", 414, 896, 2, 828, 1792, wide: true, .iPhoneNotch),
    phone("iphone-x", "iPhone X", 375, 812, 3, 1125, 2436, wide: false, .iPhoneNotch),
    phone("iphone-8-plus", "iPhone 8 Plus", 414, 736, 3, 1080, 1920, wide: true, .iPhoneHomeButton),
    phone("iphone-8", "iPhone 8", 375, 667, 2, 750, 1334, wide: false, .iPhoneHomeButton),
    phone("iphone-7-plus", "iPhone 7 Plus", 414, 736, 3, 1080, 1920, wide: true, .iPhoneHomeButton),
    phone("iphone-7", "iPhone 7", 375, 667, 2, 750, 1334, wide: false, .iPhoneHomeButton),
    phone(
      "iphone-6s-plus", "iPhone 6s Plus", 414, 736, 3, 1080, 1920, wide: true, .iPhoneHomeButton),
    phone("iphone-6s", "iPhone 6s", 375, 667, 2, 750, 1334, wide: false, .iPhoneHomeButton),
    phone(
      "iphone-6-plus", "iPhone 6 Plus", 414, 736, 3, 1080, 1920, wide: true, .iPhoneHomeButton,
      listed: false),
    phone(
      "iphone-6", "iPhone 6", 375, 667, 2, 750, 1334, wide: false, .iPhoneHomeButton, listed: false),
    phone(
      "iphone-se-4.7", "4.7” iPhone SE", 375, 667, 2, 750, 1334, wide: false, .iPhoneHomeButton),
    phone("iphone-se-4", "4” iPhone SE", 320, 568, 2, 640, 1136, wide: false, .iPhoneHomeButton),
    phone(
      "ipod-touch", "iPod touch 5th generation and later", 320, 568, 2, 640, 1136, wide: false,
      .iPhoneHomeButton),
  ]

  /// An iPad row: @2x, regular × regular in both orientations.
  private static func pad(
    _ id: String, _ name: String, _ pointWidth: Int, _ pointHeight: Int, _ pixelWidth: Int,
    _ pixelHeight: Int, _ family: ScreenFamily, listed: Bool = true
  ) -> ScreenDevice {
    let regular = SizeClasses(width: .regular, height: .regular)
    return ScreenDevice(
      id: id, name: name, points: ScreenSize(width: pointWidth, height: pointHeight), scale: 2,
      pixels: ScreenSize(width: pixelWidth, height: pixelHeight), portrait: regular,
      landscape: regular, sizeClassesListed: listed, family: family)
  }

  /// An iPhone row: compact × regular in portrait; in landscape regular × compact for the `wide`
  /// (Plus and Max class) phones, compact × compact otherwise; its capture figures are those
  /// ``CaptureDeviceModel/known`` has for its identifier.
  private static func phone(
    _ id: String, _ name: String, _ pointWidth: Int, _ pointHeight: Int, _ scale: Int,
    _ pixelWidth: Int, _ pixelHeight: Int, wide: Bool, _ family: ScreenFamily,
    listed: Bool = true
  ) -> ScreenDevice {
    ScreenDevice(
      id: id, name: name, points: ScreenSize(width: pointWidth, height: pointHeight), scale: scale,
      pixels: ScreenSize(width: pixelWidth, height: pixelHeight),
      portrait: SizeClasses(width: .compact, height: .regular),
      landscape: SizeClasses(width: wide ? .regular : .compact, height: .compact),
      sizeClassesListed: listed, family: family,
      capture: CaptureDeviceModel.known.first { $0.id == id })
  }
}
