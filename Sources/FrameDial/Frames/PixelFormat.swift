/// The pixel layouts the frame renderer reads and writes (ffmpeg's names): 8-bit, and 16-bit in
/// little-endian byte order (the native order of every machine FrameDial builds for).
public enum PixelFormat: String, Sendable, CaseIterable {
  /// Red, green, blue: 3 bytes a pixel.
  case rgb24
  /// Red, green, blue, alpha: 4 bytes a pixel.
  case rgba
  /// Blue, green, red, alpha: 4 bytes a pixel.
  case bgra
  /// Red, green, blue, 16 bits each (little-endian): 6 bytes a pixel.
  case rgb48 = "rgb48le"
  /// Red, green, blue, alpha, 16 bits each (little-endian): 8 bytes a pixel.
  case rgba64 = "rgba64le"

  /// Samples (bands) per pixel.
  public var bands: Int { self == .rgb24 || self == .rgb48 ? 3 : 4 }

  /// Bytes per sample: 1, or 2 for the 16-bit formats.
  public var sampleBytes: Int { self == .rgb48 || self == .rgba64 ? 2 : 1 }

  /// Bytes per pixel.
  public var pixelBytes: Int { bands * sampleBytes }
}
