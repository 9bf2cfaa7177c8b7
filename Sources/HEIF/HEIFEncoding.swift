import Foundation

/// How a HEIC picture is compressed: HEVC through libheif's x265 encoder.
public struct HEIFEncoding: Sendable, Equatable {
  /// Chroma resolution of the coded picture.
  public enum Chroma: String, Sendable, Equatable {
    /// Colour at half the width and half the height.
    case yuv420 = "420"
    /// Colour at full resolution.
    case yuv444 = "444"
  }

  /// libheif's quality 1 … 100 (mapped by libheif onto x265's constant rate factor).
  public var quality: Int
  /// x265's preset: its trade of encoding time for file size.
  public var preset: X265Preset
  /// x265 options set after the preset (and after libheif's own choices), in order.
  public var parameters: [X265Parameter]
  /// Chroma resolution.
  public var chroma: Chroma

  /// Creates settings; `quality` must be 1 … 100.
  public init(
    quality: Int, preset: X265Preset, parameters: [X265Parameter] = [], chroma: Chroma = .yuv420
  ) {
    self.quality = quality
    self.preset = preset
    self.parameters = parameters
    self.chroma = chroma
  }
}

/// The metadata written into a HEIC beside its picture; nil leaves a kind out.
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
