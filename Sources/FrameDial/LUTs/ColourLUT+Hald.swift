import Controls
import Vips

extension ColourLUT {
  /// The Hald CLUT levels FrameDial writes: level L holds L² nodes per axis in an L³ × L³ image.
  public static let haldLevels = 2...16

  /// The LUT of `state` for a Hald CLUT of `level`: level² nodes per axis.
  ///
  /// - Throws: ``ColourLUTError`` as ``init(state:size:)`` does, and for a level outside ``haldLevels``.
  public init(state: ControlState, haldLevel level: Int) throws(ColourLUTError) {
    guard Self.haldLevels.contains(level) else { throw .badHaldLevel(level) }
    try self.init(state: state, size: level * level)
  }

  /// The table as a 16-bit RGB Hald CLUT image: for a table of L² nodes per axis, an L³ × L³ image whose
  /// pixels, row by row, are the nodes in ``values`` order (red fastest), each value 0 … 65535.
  ///
  /// - Throws: ``ColourLUTError/notAHaldSize(_:)`` when the size is not a square, or a libvips error.
  public func haldImage() throws -> Image {
    let level = Int(Double(size).squareRoot().rounded())
    guard level * level == size else { throw ColourLUTError.notAHaldSize(size) }
    let side = level * level * level
    var samples: [UInt16] = []
    samples.reserveCapacity(values.count * 3)
    for value in values {
      for channel in [value.x, value.y, value.z] {
        samples.append(UInt16((min(max(channel, 0), 1) * 65535).rounded()))
      }
    }
    return try Image.fromPixels16(samples, width: side, height: side, bands: 3)
  }
}
