import Controls

/// The crop rectangle of a zoom: the part of a `W × H` image that is enlarged back to full size, in
/// real-valued pixel coordinates (pixel `i` covers `i … i + 1`), so that a slow zoom or pan moves the
/// picture a fraction of a pixel every frame instead of snapping to whole pixels.
///
/// The window is `W / z × H / z` (each side at least 1). Its centre sits at `(center.x · W, center.y · H)`:
/// `left = center.x · W − width / 2`, then clamped to `0 … W − width` so the window stays inside the
/// image (likewise `top`). Nothing is rounded; renderers resample the window (see
/// ``pixelBounds(margin:)`` and ``relative(to:)``) so that output pixel `X` of an output `Wₒ` wide samples
/// the input at `left + (X + 0.5) · width / Wₒ − 0.5` (pixel centres onto pixel centres).
public struct ZoomWindow: Sendable, Hashable {
  /// The left edge, `0 … imageWidth − width`.
  public let left: Double
  /// The top edge, `0 … imageHeight − height`.
  public let top: Double
  /// The window's width in pixels, at least 1.
  public let width: Double
  /// The window's height in pixels, at least 1.
  public let height: Double
  /// The width of the image the window lies in.
  public let imageWidth: Int
  /// The height of the image the window lies in.
  public let imageHeight: Int

  /// The window for an image of `imageWidth × imageHeight` pixels (each expected ≥ 1) at zoom `zoom`.
  ///
  /// A zoom below 1 or not finite reads as 1; a centre coordinate outside 0 … 1 or not finite is clamped
  /// (non-finite reads as 0.5).
  public init(imageWidth: Int, imageHeight: Int, zoom: Double, center: ZoomCenter = .center) {
    let factor = zoom.isFinite ? max(zoom, 1) : 1
    (left, width) = ZoomWindow.span(length: imageWidth, zoom: factor, center: center.x)
    (top, height) = ZoomWindow.span(length: imageHeight, zoom: factor, center: center.y)
    self.imageWidth = imageWidth
    self.imageHeight = imageHeight
  }

  /// A window placed as given, in an image of `imageWidth × imageHeight` (nothing is checked).
  package init(
    left: Double, top: Double, width: Double, height: Double, imageWidth: Int, imageHeight: Int
  ) {
    self.left = left
    self.top = top
    self.width = width
    self.height = height
    self.imageWidth = imageWidth
    self.imageHeight = imageHeight
  }

  private static func span(length: Int, zoom: Double, center: Double) -> (
    start: Double, size: Double
  ) {
    let size = max(1, Double(length) / zoom)
    let relative = center.isFinite ? min(max(center, 0), 1) : 0.5
    let start = relative * Double(length) - size / 2
    return (min(max(start, 0), max(Double(length) - size, 0)), size)
  }

  /// The whole pixels that hold the window plus `margin` more on each side (the neighbours an
  /// interpolator reads), cut to the image.
  public func pixelBounds(margin: Int) -> PixelRect {
    let x0 = max(0, Int(left.rounded(.down)) - margin)
    let y0 = max(0, Int(top.rounded(.down)) - margin)
    let x1 = min(imageWidth, Int((left + width).rounded(.up)) + margin)
    let y1 = min(imageHeight, Int((top + height).rounded(.up)) + margin)
    return PixelRect(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
  }

  /// The same window in the coordinates of `bounds` (a rectangle of this image cut out as its own image).
  public func relative(to bounds: PixelRect) -> ZoomWindow {
    ZoomWindow(
      left: left - Double(bounds.x), top: top - Double(bounds.y), width: width, height: height,
      imageWidth: bounds.width, imageHeight: bounds.height)
  }
}
