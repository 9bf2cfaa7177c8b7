/// The 8-bit pixel layouts the frame renderer reads and writes (ffmpeg's names).
public enum PixelFormat: String, Sendable, CaseIterable {
  /// Red, green, blue: 3 bytes a pixel.
  case rgb24
  /// Red, green, blue, alpha: 4 bytes a pixel.
  case rgba
  /// Blue, green, red, alpha: 4 bytes a pixel.
  case bgra

  /// Bytes per pixel.
  public var bands: Int { self == .rgb24 ? 3 : 4 }
}
