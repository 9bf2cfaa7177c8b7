/// An HEVC decoder from outside libheif that libheif decodes HEIC pictures with once it is registered
/// (``HEVCDecoderPlugin/register(_:name:)``).
///
/// The boundary between the targets: HEIF holds every libheif call and knows no HEVC decoder of its
/// own; an implementation (FFmpeg's, `HEVCStillDecoder` in the Video target) holds its codec's calls
/// and sees no libheif type, only this protocol and ``HEVCPicture``; the program (the `framedial`
/// command) registers one when it starts. libheif then hands each coded picture of a HEIC — the
/// primary image, each tile of a grid image, an alpha or depth image — to
/// ``decodePicture(_:strict:_:)`` and copies the planes it gets back into its own image.
public protocol HEVCPictureDecoder: Sendable {
  /// Decodes the one picture coded in `nalUnits` and calls `body` with it; its planes are valid only
  /// during the call. `nalUnits` holds NAL units, each after its length as 4 big-endian bytes: the
  /// parameter sets of the item's `hvcC` box, then the picture's own. `strict` true asks for an error
  /// where a picture the decoder found damaged would otherwise be returned with a warning.
  ///
  /// libheif decodes a grid's tiles on several threads at once, so this is called concurrently.
  func decodePicture<Result>(
    _ nalUnits: UnsafeRawBufferPointer, strict: Bool, _ body: (HEVCPicture) throws -> Result
  ) throws -> Result
}

/// One decoded HEVC picture, as its decoder holds it: planes of luma and chroma samples (or luma alone).
public struct HEVCPicture {
  /// How the chroma planes are sampled against the luma plane.
  public enum Chroma: Sendable, Equatable {
    /// Luma only (HEVC's 4:0:0).
    case monochrome
    /// Chroma at half the width and half the height.
    case yuv420
    /// Chroma at half the width, full height.
    case yuv422
    /// Chroma at full resolution.
    case yuv444
  }

  /// One plane of samples: `height` rows of `width` samples, each row `rowStride` bytes after the last.
  /// Samples of more than 8 bits take two bytes each, in the machine's byte order.
  public struct Plane {
    /// The first sample of the first row.
    public var base: UnsafeRawPointer
    /// Bytes from one row to the next.
    public var rowStride: Int
    /// Samples a row.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Describes a plane.
    public init(base: UnsafeRawPointer, rowStride: Int, width: Int, height: Int) {
      self.base = base
      self.rowStride = rowStride
      self.width = width
      self.height = height
    }
  }

  /// Luma width and height in pixels.
  public var width: Int
  public var height: Int
  /// The chroma sampling.
  public var chroma: Chroma
  /// Bits a sample, the same in every plane (8 … 16).
  public var bitDepth: Int
  /// Y alone (monochrome), or Y, Cb and Cr.
  public var planes: [Plane]
  /// The colour description of the stream's VUI.
  public var colour: HEVCColour
  /// Why the decoder doubts the picture (a damaged slice concealed), when it does; nil when it decoded
  /// cleanly.
  public var damage: String?

  /// Describes a decoded picture.
  public init(
    width: Int, height: Int, chroma: Chroma, bitDepth: Int, planes: [Plane], colour: HEVCColour,
    damage: String? = nil
  ) {
    self.width = width
    self.height = height
    self.chroma = chroma
    self.bitDepth = bitDepth
    self.planes = planes
    self.colour = colour
    self.damage = damage
  }
}

/// The colour description an HEVC stream's VUI gives, as ITU-T H.273 code points (2, "unspecified",
/// where the stream says nothing).
public struct HEVCColour: Sendable, Equatable {
  /// Colour primaries (1: BT.709, 12: Display P3's).
  public var primaries: UInt16
  /// Transfer characteristics (13: sRGB's curve).
  public var transfer: UInt16
  /// Matrix coefficients from R′G′B′ to Y′CbCr (6: BT.601, 1: BT.709).
  public var matrix: UInt16
  /// True when the samples use the full range of their code values (JPEG's), false for video range.
  public var fullRange: Bool

  /// A colour description.
  public init(primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool) {
    self.primaries = primaries
    self.transfer = transfer
    self.matrix = matrix
    self.fullRange = fullRange
  }
}
