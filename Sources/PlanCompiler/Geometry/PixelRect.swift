/// A rectangle in pixels: left and top edges, width and height (encoded as `x`, `y`, `width` and
/// `height`).
public struct PixelRect: Sendable, Hashable, Encodable, CustomStringConvertible {
  /// The left edge.
  public var x: Int
  /// The top edge.
  public var y: Int
  /// The width.
  public var width: Int
  /// The height.
  public var height: Int

  /// Creates a rectangle.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// One past the right edge.
  public var maxX: Int { x + width }
  /// One past the bottom edge.
  public var maxY: Int { y + height }

  /// Whether the pixel at `px`, `py` lies inside.
  public func contains(_ px: Int, _ py: Int) -> Bool {
    px >= x && px < maxX && py >= y && py < maxY
  }

  /// Whether the two rectangles share a pixel.
  public func intersects(_ other: PixelRect) -> Bool {
    x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
  }

  /// "W×H+X+Y", as image tools write geometry.
  public var description: String { "\(width)×\(height)+\(x)+\(y)" }
}
