import Foundation

/// How a HEIF picture is compressed: HEVC through libheif's x265 encoder (a HEIC file) or AV1 through
/// its AV1 encoder (an AVIF file).
public struct HEIFEncoding: Sendable, Equatable {
  /// The codec and its own settings.
  public enum Codec: Sendable, Equatable {
    /// HEVC (HEIC) with x265's `preset` and `parameters` set after it (and after libheif's own
    /// choices), in order.
    case hevc(preset: X265Preset, parameters: [X265Parameter])
    /// AV1 (AVIF) at the encoder's `speed` (0 slowest … 9 quickest).
    case av1(speed: Int)
  }

  /// Chroma resolution of the coded picture.
  public enum Chroma: String, Sendable, Equatable {
    /// Colour at half the width and half the height.
    case yuv420 = "420"
    /// Colour at full resolution.
    case yuv444 = "444"
  }

  /// libheif's quality 1 … 100 (mapped by libheif onto the encoder's quantiser).
  public var quality: Int
  /// The codec and its settings.
  public var codec: Codec
  /// Chroma resolution.
  public var chroma: Chroma

  /// Creates settings; `quality` must be 1 … 100.
  public init(quality: Int, codec: Codec, chroma: Chroma = .yuv420) {
    self.quality = quality
    self.codec = codec
    self.chroma = chroma
  }

  /// Creates HEVC settings: x265 at `preset`, then `parameters`; `quality` must be 1 … 100.
  public init(
    quality: Int, preset: X265Preset, parameters: [X265Parameter] = [], chroma: Chroma = .yuv420
  ) {
    self.init(
      quality: quality, codec: .hevc(preset: preset, parameters: parameters), chroma: chroma)
  }
}

/// The metadata written into a HEIF file beside its picture; nil leaves a kind out.
public struct HEIFMetadata: Sendable, Equatable {
  /// An ICC profile, written as the picture's `colr` box (type `prof`).
  public var iccProfile: Data?
  /// EXIF data (with or without the `Exif\0\0` prefix of a JPEG's APP1 segment).
  public var exif: Data?
  /// An XMP packet (a `mime` item of content type `application/rdf+xml`).
  public var xmp: Data?

  /// Creates metadata.
  public init(iccProfile: Data? = nil, exif: Data? = nil, xmp: Data? = nil) {
    self.iccProfile = iccProfile
    self.exif = exif
    self.xmp = xmp
  }
}
