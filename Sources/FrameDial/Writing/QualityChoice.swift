import Vips

/// The quality and chroma subsampling an output is written with: FrameDial's defaults, in one place.
///
/// - `--quality Q` (``StillOptions/quality``) always wins; chroma is then libvips's choice: 4:2:0 below
///   quality 90, 4:4:4 from 90 up.
/// - JPEG from a JPEG keeps the input's quality (estimated from its quantisation tables, see
///   `JPEGQuality`) and its chroma subsampling: 4:2:0 stays 4:2:0, 4:4:4 stays 4:4:4; 4:2:2, 4:4:0 and
///   4:1:1 (which libvips 8.14 cannot write) become 4:4:4, so no colour detail is lost (libvips names a
///   grey JPEG 4:4:4 too).
/// - Otherwise the format's ``defaultQuality(for:)``.
public struct QualityChoice: Sendable, Equatable {
  /// The quality written; nil for formats without one (PNG, and TIFF, which FrameDial writes
  /// losslessly).
  public var quality: Int?
  /// The chroma subsampling written (JPEG, HEIC, AVIF).
  public var chromaSubsampling: SaveOptions.ChromaSubsampling

  /// FrameDial's default quality for `format`, near visually lossless: JPEG 90 (with 4:4:4 chroma),
  /// WebP 90, HEIC 60, AVIF 80; nil for PNG and TIFF (lossless). HEIC and AVIF use libheif's own quality
  /// scales (x265 and aom), which are not JPEG's: on the repository's three PNG photos, HEIC 60 and
  /// AVIF 80 (like WebP 90) come at least as close to the original (luma SSIM 0.983 … 0.992) as JPEG
  /// 90 4:4:4 does (0.975 … 0.985): AVIF in 55 … 75 % of its bytes, HEIC in 66 … 72 % at the default
  /// ``EncodingEffort/fast`` and 55 … 67 % at ``EncodingEffort/small``.
  public static func defaultQuality(for format: ImageFormat) -> Int? {
    switch format {
    case .jpeg: 90
    case .webp: 90
    case .heic: 60
    case .avif: 80
    case .png, .tiff: nil
    }
  }

  /// The defaults in a sentence, for `--help`.
  public static var defaultsSummary: String {
    func value(_ format: ImageFormat) -> String {
      defaultQuality(for: format).map(String.init) ?? "–"
    }
    return
      "default: a JPEG from a JPEG keeps the input's quality and chroma subsampling; otherwise "
      + "JPEG \(value(.jpeg)) 4:4:4, WebP \(value(.webp)), HEIC \(value(.heic)), AVIF \(value(.avif))"
  }

  /// The choice for writing `format`: `requested` (`--quality`) when given, else the input's own for a
  /// JPEG read from a JPEG (`input` is the loaded image, carrying `Image/jpegQuality` and
  /// `Image/jpegChromaSubsampling`), else the format's default.
  public init(format: ImageFormat, requested: Int?, input: Image? = nil) {
    guard format.hasQuality, format != .tiff || requested != nil else {
      self.init(quality: nil, chromaSubsampling: .auto)
      return
    }
    if let requested {
      self.init(quality: requested, chromaSubsampling: .auto)
    } else if format == .jpeg, let kept = input?.jpegQuality {
      let subsampled = input?.jpegChromaSubsampling == "4:2:0"
      self.init(quality: kept, chromaSubsampling: subsampled ? .on : .off)
    } else {
      self.init(
        quality: Self.defaultQuality(for: format),
        chromaSubsampling: format == .jpeg ? .off : .auto)
    }
  }

  /// Creates a choice from its parts.
  public init(quality: Int?, chromaSubsampling: SaveOptions.ChromaSubsampling) {
    self.quality = quality
    self.chromaSubsampling = chromaSubsampling
  }

  /// The save options that write this choice.
  public var saveOptions: SaveOptions {
    SaveOptions(quality: quality, chromaSubsampling: chromaSubsampling)
  }
}
