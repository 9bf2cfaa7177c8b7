import Controls

/// The crop rectangle of a zoom: the part of a `width × height` image that is enlarged back to full size.
///
/// The window is `cw = max(1, round(W / z))` × `ch = max(1, round(H / z))`. Its centre sits at
/// `(center.x · W, center.y · H)`: `left = floor(center.x · W − cw / 2)`, which for the default centre 0.5 is
/// `floor((W − cw) / 2)`, then clamped to `0 … W − cw` so the window stays inside the image (likewise `top`).
public struct ZoomWindow: Sendable, Hashable {
  /// The first column of the window.
  public let left: Int
  /// The first row of the window.
  public let top: Int
  /// The window's width in pixels, at least 1.
  public let width: Int
  /// The window's height in pixels, at least 1.
  public let height: Int

  /// The window for an image of `imageWidth × imageHeight` pixels (each expected ≥ 1) at zoom `zoom`.
  ///
  /// A zoom below 1 or not finite reads as 1; a centre coordinate outside 0 … 1 or not finite is clamped
  /// (non-finite reads as 0.5).
  public init(imageWidth: Int, imageHeight: Int, zoom: Double, center: ZoomCenter = .center) {
    let factor = zoom.isFinite ? max(zoom, 1) : 1
    let (left, width) = ZoomWindow.span(length: imageWidth, zoom: factor, center: center.x)
    let (top, height) = ZoomWindow.span(length: imageHeight, zoom: factor, center: center.y)
    self.left = left
    self.top = top
    self.width = width
    self.height = height
  }

  private static func span(length: Int, zoom: Double, center: Double) -> (start: Int, size: Int) {
    let size = max(1, Int((Double(length) / zoom).rounded()))
    let relative = center.isFinite ? min(max(center, 0), 1) : 0.5
    let start = Int((relative * Double(length) - Double(size) / 2).rounded(.down))
    return (min(max(start, 0), max(length - size, 0)), size)
  }
}
