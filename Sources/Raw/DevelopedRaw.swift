import CLibRaw

/// A developed raw: 16-bit samples in the sRGB primaries, upright (see
/// ``RawFile/develop(halfSize:curve:)``), held in LibRaw's own memory and freed with this object (a
/// picture packed in place goes with its ``RawFile``, which this object keeps open). One instance
/// belongs to one thread at a time.
public final class DevelopedRaw: @unchecked Sendable {
  /// Who holds the samples: LibRaw's working picture, packed in place (the file stays open until this
  /// object goes), or the upright copy LibRaw made of it.
  enum Storage {
    case workingPicture(RawFile)
    case copy(UnsafeMutablePointer<libraw_processed_image_t>)
  }

  private let storage: Storage

  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Samples per pixel: 3 (red, green, blue) or 1 (a monochrome sensor's grey).
  public let bands: Int
  /// The samples of each pixel, row after row. They may be changed in place; they live as long as
  /// this object.
  public let samples: UnsafeMutableBufferPointer<UInt16>

  /// Takes over `samples`, checked by the caller to hold `width × height × bands` 16-bit samples and
  /// to live as long as `storage`.
  init(
    _ storage: Storage, samples: UnsafeMutablePointer<UInt16>, width: Int, height: Int, bands: Int
  ) {
    self.storage = storage
    self.width = width
    self.height = height
    self.bands = bands
    self.samples = UnsafeMutableBufferPointer(start: samples, count: width * height * bands)
  }

  deinit {
    if case .copy(let image) = storage { libraw_dcraw_clear_mem(image) }
  }
}
