import Foundation
import HEIF
import Vips

/// Writes HEIC and AVIF through libheif (``HEIF``) rather than libvips's `heifsave`, whose fixed slow
/// x265 setting takes tens of seconds for a 12-megapixel photo: the rendered image is computed into
/// libheif's picture memory (8-bit RGB or RGBA), compressed with x265 at the settings of an
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
    let rgb = try eightBitRGB(image)
    guard rgb.bands == 3 || rgb.bands == 4 else {
      throw VipsError("a \(format.rawValue.uppercased()) holds RGB or RGBA, not \(rgb.bands) bands")
    }
    let picture = try HEIFPicture(width: rgb.width, height: rgb.height, hasAlpha: rgb.bands == 4)
    try picture.withPixels { rows, rowStride in
      try rgb.render(
        into: rows,
        layout: FrameLayout(
          width: rgb.width, height: rgb.height, bands: rgb.bands, rowStride: rowStride))
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
