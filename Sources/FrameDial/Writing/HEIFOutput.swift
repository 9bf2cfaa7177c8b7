import Foundation
import HEIF
import Vips

/// Writes HEIC and AVIF through libheif (``HEIF``) rather than libvips's `heifsave`, whose fixed slow
/// x265 setting takes tens of seconds for a 12-megapixel photo: the rendered image is computed into
/// libheif's picture memory (RGB or RGBA, 8 bits a sample, or 10 (HEIC) or 12 (AVIF) for a 16-bit
/// picture; see ``bitDepth(of:format:)``), compressed with x265 at the settings of an
/// ``EncodingEffort`` (HEIC) or with the AV1 encoder at ``av1Speed`` (AVIF), and written with the
/// image's ICC profile, its EXIF (orientation 1, dimensions of the output; see ``EXIFUpright``) and its
/// XMP. The file written is opened again by libheif, which must find the picture at its size, before it
/// counts as written.
enum HEIFOutput {
  /// The AV1 encoder's speed for AVIF outputs (0 slowest … 9 quickest): libvips's `heifsave` default
  /// (effort 4, speed 9 − 4).
  static let av1Speed = 5

  /// Writes `image` to `path` as `format` (`.heic` or `.avif`) at `choice`'s quality (4:4:4 chroma
  /// from quality 90, or when asked for; 4:2:0 otherwise, as libvips chooses) and, for HEIC, `effort`;
  /// `auxiliary` pictures (an HDR gain map) are encoded alike as auxiliary images of the picture.
  static func write(
    _ image: Image, to path: String, format: ImageFormat, choice: QualityChoice,
    effort: EncodingEffort, auxiliary: [HEIFAuxiliaryPicture] = []
  ) throws {
    guard format == .heic || format == .avif else {
      throw VipsError("\(format.rawValue) is not written through libheif")
    }
    let depth = bitDepth(of: image, format: format)
    let rgb = try depth == 8 ? eightBitRGB(image) : deepRGB(image, bitDepth: depth)
    guard rgb.bands == 3 || rgb.bands == 4 else {
      throw VipsError("a \(format.rawValue.uppercased()) holds RGB or RGBA, not \(rgb.bands) bands")
    }
    let picture = try HEIFPicture(
      width: rgb.width, height: rgb.height, hasAlpha: rgb.bands == 4, bitDepth: depth)
    try picture.withPixels { rows, rowStride in
      try rgb.render(
        into: rows,
        layout: FrameLayout(
          width: rgb.width, height: rgb.height, bands: rgb.bands,
          sampleBytes: picture.sampleBytes, rowStride: rowStride))
    }
    let quality = choice.quality ?? QualityChoice.defaultQuality(for: format) ?? 60
    let fullChroma =
      choice.chromaSubsampling == .off || (choice.chromaSubsampling == .auto && quality >= 90)
    let codec: HEIFEncoding.Codec =
      format == .heic
      ? .hevc(preset: effort.x265Preset, parameters: effort.x265Parameters)
      : .av1(speed: Self.av1Speed)
    try picture.write(
      to: path,
      encoding: HEIFEncoding(
        quality: quality, codec: codec, chroma: fullChroma ? .yuv444 : .yuv420),
      metadata: HEIFMetadata(
        iccProfile: try? rgb.blob(Image.iccProfileField),
        exif: (try? rgb.blob(Image.exifField)).map {
          EXIFUpright.patched($0, width: rgb.width, height: rgb.height)
        },
        xmp: try? rgb.blob(Image.xmpField)),
      auxiliary: auxiliary)
    let file = try HEIFFile(path: path)
    let written = file.size
    guard written == (rgb.width, rgb.height) else {
      throw HEIFError(
        "the \(format.rawValue.uppercased()) written reads back as \(written.width)×\(written.height), not \(rgb.width)×\(rgb.height)"
      )
    }
    let read = auxiliary.isEmpty ? [] : try file.auxiliaryImages()
    for picture in auxiliary
    where !read.contains(where: {
      $0.type == picture.type && ($0.width, $0.height) == (picture.width, picture.height)
    }) {
      throw HEIFError(
        "the \(format.rawValue.uppercased()) written reads back without its \(picture.width)×"
          + "\(picture.height) auxiliary image \(picture.type)")
    }
  }

  /// The bits a sample `image` is written with in `format`: 8 for an 8-bit image; for a 16-bit one, 10
  /// in a HEIC (HEVC's Main 10, which phones and browsers decode) and 12 in an AVIF.
  static func bitDepth(of image: Image, format: ImageFormat) -> Int {
    guard image.format == .ushort else { return 8 }
    return format == .heic ? 10 : 12
  }

  /// A 16-bit `image` as RGB bands of `bitDepth`-bit codes in 16-bit samples (`round(v × (2^bitDepth −
  /// 1) / 65535)`), alpha kept and scaled alike (grey becomes three equal bands).
  private static func deepRGB(_ image: Image, bitDepth: Int) throws -> Image {
    var rgb = image
    if rgb.bands < 3 { rgb = try rgb.colourspace("rgb16") }
    let scale = Double((1 << bitDepth) - 1) / 65535
    return try rgb.linear([scale], [0.5]).cast(to: .ushort)
  }

  /// `image` as 8-bit sRGB bands, alpha kept (grey becomes three equal bands; 16 bits become 8).
  private static func eightBitRGB(_ image: Image) throws -> Image {
    var rgb = image
    if rgb.bands < 3 || rgb.format != .uchar {
      rgb = try rgb.colourspace("srgb")
    }
    if rgb.format != .uchar { rgb = try rgb.cast(to: .uchar) }
    return rgb
  }
}
