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
  /// The colour matrix between the planes' Y′CbCr and R′G′B′.
  public enum Matrix: Sendable, Equatable {
    /// ITU-R BT.601.
    case bt601
    /// ITU-R BT.709.
    case bt709
    /// ITU-R BT.2020 non-constant luminance.
    case bt2020
  }

  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Bits per YUV sample: 8 or 10.
  public var depth: Int
  /// The colour matrix.
  public var matrix: Matrix
  /// True for full (PC) range, false for TV range.
  public var fullRange: Bool
}

/// Makes the conversion for a format, or returns nil to leave it to libswscale.
public typealias PlanarConversionMaker = (PlanarFormat) -> PlanarConversion?

/// One frame handed to ``VideoTranscoder/planarRender`` as YUV planes: the decoded planes to read and
/// the encoder's planes to write: of the same format, or, for HDR video tone-mapped to SDR, of an 8-bit
/// BT.709 TV-range frame made through ``toneMapper``.
public struct PlanarFrame {
  /// The decoded planes' size, depth and colour.
  public let format: PlanarFormat
  /// The output planes' size, depth and colour: ``format``, or an SDR frame's.
  public let outputFormat: PlanarFormat
  /// The tone mapping from the decoded frame's 16-bit R′G′B′ to the output's SDR rgb24, when the
  /// output is SDR of HDR video (nil otherwise): the render must then go through it.
  public let toneMapper: RGBToneMapper?
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
  /// The frame is encoded as decoded (taken as ``needsRGB`` when the output's format is not the
  /// decoded frame's).
  case unchanged
  /// The output planes hold the processed frame.
  case rendered
  /// The frame goes to the RGB render instead.
  case needsRGB
}
