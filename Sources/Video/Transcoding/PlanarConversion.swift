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

/// One frame handed to ``VideoTranscoder/planarRender`` as YUV planes: the decoded planes to read and
/// the encoder's planes (same format) to write.
public struct PlanarFrame {
  /// The planes' size, depth and colour.
  public let format: PlanarFormat
  /// The decoded Y, U and V planes.
  public let input: [UnsafeRawPointer]
  /// Bytes from one row to the next in each decoded plane.
  public let inputStrides: [Int]
  /// The Y, U and V planes to encode.
  public let output: [UnsafeMutableRawPointer]
  /// Bytes from one row to the next in each output plane.
  public let outputStrides: [Int]
  /// Presentation time in seconds from the video stream's first frame.
  public let time: Double
  /// The frame's number, from 0, in presentation order.
  public let index: Int
}

/// What ``VideoTranscoder/planarRender`` made of a frame.
public enum PlanarOutcome: Sendable {
  /// The frame is encoded as decoded.
  case unchanged
  /// The output planes hold the processed frame.
  case rendered
  /// The frame goes to the RGB render instead.
  case needsRGB
}
