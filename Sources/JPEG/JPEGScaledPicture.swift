import CJPEGHeader
import Foundation

/// A JPEG decoded by libjpeg-turbo at M/8 of its size (its DCT scaling, M = 1 … 8, each side rounded
/// up; `CJPEGHeader`'s `JPEGScaledDecoder.h`): 8-bit RGB or grey samples in packed rows.
public final class JPEGScaledPicture {
  /// How much damage stops a decode.
  public enum FailOn: Sendable {
    /// Decode whatever can be decoded.
    case none
    /// Stop when the compressed data ends early.
    case truncated
    /// Stop at any warning libjpeg gives about the data.
    case warning
  }

  /// Why a decode gave no picture.
  public enum Failure: Error, Equatable {
    /// The scaled size is over the pixel limit; nothing was decoded.
    case overPixelLimit(width: Int, height: Int)
    /// Not a JPEG, or its header is damaged: libjpeg's reason.
    case unreadable(String)
    /// The header was read but the compressed data is damaged: libjpeg's reason.
    case damaged(String)
  }

  /// Width in pixels.
  public var width: Int { Int(image.width) }
  /// Height in pixels.
  public var height: Int { Int(image.height) }
  /// Samples a pixel: 3 (RGB) or 1 (grey).
  public var bands: Int { Int(image.bands) }
  /// The samples, `width × height × bands` bytes (nil if libjpeg gave none); valid while this value
  /// lives.
  public let pixels: UnsafeRawPointer?

  private var image: FDJPEGScaledImage

  private init(_ image: FDJPEGScaledImage) {
    self.image = image
    pixels = image.pixels.map { UnsafeRawPointer($0) }
  }

  deinit { fd_jpeg_scaled_free(&image) }

  /// The JPEG held in `bytes` decoded at `eighths`/8 of its size; `pixelLimit` (nil: none) is checked
  /// on the scaled size before any pixel is decoded. Nil for a valid JPEG that is not YCbCr, RGB or grey
  /// (CMYK, YCCK), which must be decoded another way.
  public static func decode(
    _ bytes: Data, eighths: Int, failOn: FailOn, pixelLimit: Int?
  ) throws(Failure) -> JPEGScaledPicture? {
    var decoded = FDJPEGScaledImage()
    var message = [CChar](repeating: 0, count: 256)
    let level =
      switch failOn {
      case .none: Int32(FD_JPEG_FAIL_ON_NONE)
      case .truncated: Int32(FD_JPEG_FAIL_ON_TRUNCATED)
      case .warning: Int32(FD_JPEG_FAIL_ON_WARNING)
      }
    let status = bytes.withUnsafeBytes { raw in
      fd_jpeg_decode_scaled(
        raw.baseAddress, raw.count, Int32(eighths), level, Int64(pixelLimit ?? 0), &decoded,
        &message, message.count)
    }
    switch Int(status) {
    case Int(FD_JPEG_SCALED_OK):
      return JPEGScaledPicture(decoded)
    case Int(FD_JPEG_SCALED_UNSUPPORTED):
      fd_jpeg_scaled_free(&decoded)
      return nil
    case Int(FD_JPEG_SCALED_OVER_LIMIT):
      fd_jpeg_scaled_free(&decoded)
      throw .overPixelLimit(width: Int(decoded.width), height: Int(decoded.height))
    default:
      fd_jpeg_scaled_free(&decoded)
      let text = JPEGError.text(message)
      throw status == FD_JPEG_SCALED_DAMAGED ? .damaged(text) : .unreadable(text)
    }
  }
}
