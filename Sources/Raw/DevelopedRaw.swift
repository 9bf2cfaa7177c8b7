/// A developed raw: linear-light 16-bit RGB in the sRGB primaries, upright (see
/// ``RawFile/develop(halfSize:)``).
public struct DevelopedRaw: Sendable, Equatable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Red, green, blue of each pixel, row after row; 65 535 is the sensor's white level.
  public var samples: [UInt16]
}
