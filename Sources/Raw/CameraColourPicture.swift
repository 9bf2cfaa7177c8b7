/// A raw developed up to LibRaw's conversion out of the camera's colours (see
/// ``RawFile/developInCameraColours()``): LibRaw's working picture, held in the file's memory, which this
/// object keeps open. One instance belongs to one thread at a time.
///
/// The picture's pixels are four 16-bit samples each, red, green and blue in the camera's colours and a
/// fourth that is not used, row after row, upright. LibRaw's `convert_to_rgb` would make each pixel's
/// sample `c` in the sRGB primaries `min(max(Int(m[3c] · r + m[3c + 1] · g + m[3c + 2] · b), 0), 65535)`
/// with `m` the ``cameraMatrix``, in `Float`, products and sums in that order, truncated toward zero.
public final class CameraColourPicture: @unchecked Sendable {
  /// The open file whose memory holds the picture.
  private let file: RawFile
  /// The first sample; `width × height × 4` of them, which may be changed in place (or overwritten
  /// with the caller's own pixels) and live as long as this object.
  public let samples: UnsafeMutablePointer<UInt16>
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// The camera → sRGB matrix, row-major 3 × 3 (LibRaw's `rgb_cam`).
  public let cameraMatrix: [Float]

  init(
    file: RawFile, samples: UnsafeMutablePointer<UInt16>, width: Int, height: Int,
    cameraMatrix: [Float]
  ) {
    self.file = file
    self.samples = samples
    self.width = width
    self.height = height
    self.cameraMatrix = cameraMatrix
  }
}
