/// A conversion between YUV 4:2:0 planes and packed RGB that the caller supplies in place of
/// libswscale (FrameDial's own, from the command line; this module stays FFmpeg-only).
public protocol PlanarConversion: AnyObject {
  /// Converts the Y, U and V planes (rows `strides` bytes apart) into packed RGB at `rgb`.
  func toRGB(
    planes: [UnsafeRawPointer], strides: [Int], into rgb: UnsafeMutableRawPointer, rgbStride: Int)
  /// Converts packed RGB at `rgb` into the Y, U and V planes (rows `strides` bytes apart).
  func fromRGB(
    _ rgb: UnsafeRawPointer, rgbStride: Int, into planes: [UnsafeMutableRawPointer],
    strides: [Int])
}

/// The frames a ``PlanarConversion`` is asked for: 4:2:0 planes of `depth` bits (8: `yuv420p`, 10:
/// `yuv420p10le`) and packed RGB of 1 or 2 bytes a sample (rgb24, rgb48le).
public struct PlanarFormat: Sendable, Equatable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Bits per YUV sample: 8 or 10.
  public var depth: Int
  /// True for BT.709, false for BT.601.
  public var bt709: Bool
  /// True for full (PC) range, false for TV range.
  public var fullRange: Bool
}

/// Makes the conversion for a format, or returns nil to leave it to libswscale.
public typealias PlanarConversionMaker = (PlanarFormat) -> PlanarConversion?
