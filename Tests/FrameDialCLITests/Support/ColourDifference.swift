import Foundation
import Vips

/// Colour differences as CIEDE2000 (libvips's `dE00` on CIELAB from libvips's colour-space
/// conversion), against lcms's own conversions (libvips's `icc_transform` with the picture's
/// embedded profile): the reference a picture's colours are checked against.
enum ColourDifference {
  /// The bound the tests hold a conversion to: a mean ΔE2000 of 0.5 is half the smallest difference
  /// an observer notices side by side (about 1), and covers the 8-bit roundings of a picture written
  /// in another space and converted again for the comparison (0.2 … 0.36 measured). The wrong
  /// profile measures 4 (libvips's built-in CMYK profile on a SWOP or ghostscript CMYK picture), an
  /// untagged ProPhoto picture 10.
  static let bound = 0.5

  /// `image` as lcms converts it into 8-bit sRGB from its own ICC profile (perceptual intent, as
  /// FrameDial converts inputs; an untagged CMYK picture from libvips's built-in CMYK profile); an
  /// untagged RGB or grey picture taken as sRGB. Alpha is dropped and grey made RGB.
  static func lcmsSRGB(_ image: Image) throws -> Image {
    var rgb: Image
    if image.hasICCProfile || image.interpretation == "cmyk" {
      rgb = try Operation.call(
        "icc_transform",
        [
          "in": .image(image), "output-profile": "srgb", "embedded": true, "intent": "perceptual",
          "input-profile": .string(image.interpretation == "cmyk" ? "cmyk" : "srgb"), "depth": 8,
        ]
      ).image()
    } else {
      rgb = try image.colourspace("srgb")
    }
    if rgb.bands == 2 || rgb.bands == 4 { rgb = try rgb.extractBands(0, count: rgb.bands - 1) }
    if rgb.bands == 1 { rgb = try Image.joinBands([rgb, rgb, rgb]).interpreted(as: "srgb") }
    return rgb
  }

  /// The picture at `path` as ``lcmsSRGB(_:)`` converts it.
  static func lcmsSRGB(_ path: String) throws -> Image {
    try lcmsSRGB(try Image(contentsOf: path))
  }

  /// The mean ΔE2000 between two sRGB pictures of one size.
  static func mean(_ a: Image, _ b: Image) throws -> Double {
    try Operation.call(
      "dE00", ["left": .image(try a.colourspace("lab")), "right": .image(try b.colourspace("lab"))]
    ).image().average()
  }

  /// The mean ΔE2000 between the pictures at `a` and `b`, each converted by ``lcmsSRGB(_:)``.
  static func mean(_ a: String, _ b: String) throws -> Double {
    try mean(try lcmsSRGB(a), try lcmsSRGB(b))
  }
}
