import Foundation

/// One rendered frame as the server sends it: its raw RGBA pixels (for pages on this machine), its JPEG
/// (for pages elsewhere and `GET /frame.jpg`), or both. Each is made only when the server asks for it
/// (``StudioBackend/framesWanted(rgba:jpeg:)``); a frame handed in again with the same ``number``
/// adds what it lacked.
public struct StudioFrame: Sendable, Equatable {
  /// The renderer's count of the pictures it made: equal numbers are the same pixels.
  public var number: UInt64
  /// The size in pixels.
  public var width: Int
  public var height: Int
  /// `width × height × 4` bytes, R, G, B, A (255) in rows, top first; nil when not made.
  public var rgba: Data?
  /// The frame encoded as a JPEG; nil when not made.
  public var jpeg: Data?

  /// Creates a frame.
  public init(number: UInt64, width: Int, height: Int, rgba: Data? = nil, jpeg: Data? = nil) {
    self.number = number
    self.width = width
    self.height = height
    self.rgba = rgba
    self.jpeg = jpeg
  }

  /// This frame with what `later` (the same pixels, handed in again) adds.
  func merging(_ later: StudioFrame) -> StudioFrame {
    var merged = later
    merged.rgba = later.rgba ?? rgba
    merged.jpeg = later.jpeg ?? jpeg
    return merged
  }
}
