/// Where everything goes on a viewfinder preview, in screen pixels (see `PreviewLayout/make`).
///
/// - The screen is the device's pixels in the chosen orientation.
/// - The safe area is the screen minus ``SafeAreaInsets`` (scaled by the device's scale factor).
/// - The viewfinder is the largest rectangle with the picture's aspect ratio inside the safe area,
///   centred in it (the HIG: maximize the viewfinder; keep clear of the sensor housing and Home indicator).
/// - The Camera Control overlay region is the screen area next to the hardware control (HIG "Camera
///   Control": the overlay extends from the bezel beside the control, in both orientations):
///   - portrait: the control is on the right side, in the lower half; FrameDial centres it at
///     ``controlPosition`` (62 %) of the screen height (an estimate from Apple's product images; Apple
///     publishes no figure). The region is ``portraitOverlay`` (150 × 300 pt) against the right edge,
///     centred on the control and kept inside the safe area vertically;
///   - landscape (the phone turned anticlockwise, control on the top edge): the control sits at 62 % of
///     the width from the left; the region is ``landscapeOverlay`` (300 × 124 pt) against the top edge,
///     centred on the control and kept inside the safe area horizontally.
///   Either way the region stays off the centre of the viewfinder.
public struct PreviewLayout: Sendable, Equatable {
  /// Where the Camera Control sits along its edge, as a fraction of the screen's length from the top
  /// (portrait) or from the left (landscape).
  public static let controlPosition = 0.62
  /// The overlay region in portrait, in points (width, height).
  public static let portraitOverlay = (width: 150, height: 300)
  /// The overlay region in landscape, in points (width, height).
  public static let landscapeOverlay = (width: 300, height: 124)

  /// The device.
  public var device: ScreenDevice
  /// How it is held.
  public var orientation: ScreenOrientation
  /// The screen: its pixels in this orientation, at the origin.
  public var screen: PixelRect
  /// The safe area.
  public var safeArea: PixelRect
  /// The viewfinder: where the processed picture goes.
  public var viewfinder: PixelRect
  /// The overlay region; nil for a device without a Camera Control.
  public var overlay: PixelRect?

  /// Pixels per point.
  public var scale: Int { device.scale }

  /// The layout for a picture of `imageWidth × imageHeight` on `device` held in `orientation`.
  public static func make(
    device: ScreenDevice, orientation: ScreenOrientation, imageWidth: Int, imageHeight: Int
  ) -> PreviewLayout {
    let size = device.pixels(in: orientation)
    let screen = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
    let insets = device.safeArea(in: orientation)
    let s = device.scale
    let safe = PixelRect(
      x: insets.left * s, y: insets.top * s,
      width: size.width - (insets.left + insets.right) * s,
      height: size.height - (insets.top + insets.bottom) * s)
    let fit = ScreenFit(width: safe.width, height: safe.height, mode: .contain)
      .scaledSize(inputWidth: max(1, imageWidth), inputHeight: max(1, imageHeight))
    let viewfinder = PixelRect(
      x: safe.x + (safe.width - fit.width) / 2, y: safe.y + (safe.height - fit.height) / 2,
      width: fit.width, height: fit.height)
    let overlay =
      device.hasCameraControl
      ? overlayRegion(screen: screen, safe: safe, scale: s, orientation: orientation) : nil
    return PreviewLayout(
      device: device, orientation: orientation, screen: screen, safeArea: safe,
      viewfinder: viewfinder, overlay: overlay)
  }

  /// The overlay region next to the Camera Control (see the type's documentation).
  static func overlayRegion(
    screen: PixelRect, safe: PixelRect, scale: Int, orientation: ScreenOrientation
  ) -> PixelRect {
    switch orientation {
    case .portrait:
      let width = portraitOverlay.width * scale
      let height = min(portraitOverlay.height * scale, safe.height)
      let centre = Int((Double(screen.height) * controlPosition).rounded())
      let top = min(max(centre - height / 2, safe.y), safe.maxY - height)
      return PixelRect(x: screen.maxX - width, y: top, width: width, height: height)
    case .landscape:
      let width = min(landscapeOverlay.width * scale, safe.width)
      let height = landscapeOverlay.height * scale
      let centre = Int((Double(screen.width) * controlPosition).rounded())
      let left = min(max(centre - width / 2, safe.x), safe.maxX - width)
      return PixelRect(x: left, y: 0, width: width, height: height)
    }
  }
}
