import CLibRaw

/// A developed raw: linear-light 16-bit samples in the sRGB primaries, upright (see
/// ``RawFile/develop(halfSize:)``), held in LibRaw's own memory (no copy) and freed with this object.
/// One instance belongs to one thread at a time.
public final class DevelopedRaw: @unchecked Sendable {
  private let image: UnsafeMutablePointer<libraw_processed_image_t>

  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Samples per pixel: 3 (red, green, blue) or 1 (a monochrome sensor's grey).
  public let bands: Int
  /// The samples of each pixel, row after row; 65 535 is the sensor's white level. They may be
  /// changed in place; they live as long as this object.
  public let samples: UnsafeMutableBufferPointer<UInt16>

  /// Takes ownership of LibRaw's `image`, checked by the caller to hold `width × height × bands`
  /// 16-bit samples.
  init(
    _ image: UnsafeMutablePointer<libraw_processed_image_t>, width: Int, height: Int, bands: Int
  ) {
    self.image = image
    self.width = width
    self.height = height
    self.bands = bands
    samples = UnsafeMutableBufferPointer(
      start: fd_raw_image_pixels(image).assumingMemoryBound(to: UInt16.self),
      count: width * height * bands)
  }

  deinit {
    libraw_dcraw_clear_mem(image)
  }
}
