/// Where the tiles and labels of a sweep contact sheet go, in pixels: a heading strip, then tiles in
/// rows of up to ``maxColumns``, left to right and top to bottom in value order, each with its label
/// in a strip below it.
public struct SweepLayout: Sendable, Equatable {
  /// The widest tile: pictures are thumbnailed to at most this width.
  public static let maxTileWidth = 400
  /// Tiles per row at most.
  public static let maxColumns = 4
  /// The margin around the sheet and the gap between tiles.
  public static let margin = 16
  /// The height of the heading strip.
  public static let headingHeight = 40
  /// The height of each label strip.
  public static let labelHeight = 34

  /// The sheet's size.
  public var width: Int
  /// The sheet's height.
  public var height: Int
  /// The size every tile has.
  public var tileWidth: Int
  /// The tiles' height.
  public var tileHeight: Int
  /// Tiles per row.
  public var columns: Int
  /// The heading strip.
  public var heading: PixelRect
  /// Each tile's picture, in value order.
  public var tiles: [PixelRect]
  /// Each tile's label strip, in value order.
  public var labels: [PixelRect]

  /// The layout of `count` tiles of a picture of `imageWidth × imageHeight`.
  public static func make(count: Int, imageWidth: Int, imageHeight: Int) -> SweepLayout {
    let tileWidth = min(maxTileWidth, max(1, imageWidth))
    let tileHeight = max(
      1,
      Int((Double(max(1, imageHeight)) * Double(tileWidth) / Double(max(1, imageWidth))).rounded()))
    let columns = max(1, min(count, maxColumns))
    let rows = (count + columns - 1) / columns
    let cellHeight = tileHeight + labelHeight
    let width = 2 * margin + columns * tileWidth + (columns - 1) * margin
    let height = margin + headingHeight + rows * cellHeight + max(0, rows - 1) * margin + margin
    var tiles: [PixelRect] = []
    var labels: [PixelRect] = []
    for index in 0..<count {
      let x = margin + (index % columns) * (tileWidth + margin)
      let y = margin + headingHeight + (index / columns) * (cellHeight + margin)
      tiles.append(PixelRect(x: x, y: y, width: tileWidth, height: tileHeight))
      labels.append(PixelRect(x: x, y: y + tileHeight, width: tileWidth, height: labelHeight))
    }
    return SweepLayout(
      width: width, height: height, tileWidth: tileWidth, tileHeight: tileHeight, columns: columns,
      heading: PixelRect(x: margin, y: margin, width: width - 2 * margin, height: headingHeight),
      tiles: tiles, labels: labels)
  }
}
