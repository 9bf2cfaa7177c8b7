import Foundation
import Vips

/// Reads a still and brings it to the form the compiled plans work on (image-math.md, "Before the math"):
/// upright (EXIF orientation applied, orientation 1), sRGB (other ICC profiles and CMYK converted),
/// 8 or 16 bits, grey kept as one band, alpha kept last.
///
/// When no colour stage will run (`convertsColour` false: the identity, or a zoom alone), an image whose
/// ICC profile is not sRGB keeps its pixels and its profile untouched, so the output is bit-exact and
/// still displays correctly.
public enum StillInput {
  /// Reads `path` and prepares it. `keepSixteenBits` false converts 16-bit images to 8 bits. A sequential
  /// read is turned into a random-access one when the image must be rotated.
  public static func load(
    _ path: String, options: LoadOptions = LoadOptions(), keepSixteenBits: Bool = true,
    convertsColour: Bool = true
  ) throws -> Image {
    var loadOptions = options
    loadOptions.autoRotate = false
    var image = try open(path, options: loadOptions)
    if image.orientation != 1 {
      // Turning the pixels needs random access: reopen (only the header has been read so far).
      if loadOptions.sequential {
        loadOptions.sequential = false
        image = try Image(contentsOf: path, options: loadOptions)
      }
      image = try image.autoRotated()
    }
    return try prepare(image, keepSixteenBits: keepSixteenBits, convertsColour: convertsColour)
  }

  /// Reads `path` for an output that will be made smaller, decoding it smaller when `shrink` allows
  /// (shrink-on-load, see `LoadOptions.shrink`): `shrink` is given the upright size of the full picture
  /// (EXIF orientations 5 … 8 swap its sides) and returns the factor; a camera raw is developed at half
  /// size when the output is at most half its size. Returns the prepared image, which
  /// may be smaller than the file's picture, and that upright full size. The pixel limit is checked on
  /// the size decoded.
  public static func load(
    _ path: String, options: LoadOptions = LoadOptions(), keepSixteenBits: Bool = true,
    convertsColour: Bool = true, shrink: (_ uprightWidth: Int, _ uprightHeight: Int) -> Int
  ) throws -> (image: Image, uprightWidth: Int, uprightHeight: Int) {
    var headerOptions = options
    headerOptions.pixelLimit = nil
    headerOptions.autoRotate = false
    let width: Int
    let height: Int
    var loadOptions = options
    if let raw = RawStill.identify(path) {
      let facts = try RawStill.facts(path, raw)  // already upright
      (width, height) = (facts.width, facts.height)
      // LibRaw's half-size development needs no margin for a final resize: asked of a picture twice
      // as large, `shrink` says 2 or more exactly when the output is at most half this one.
      loadOptions.shrink = max(1, shrink(2 * width, 2 * height))
    } else {
      let header = try open(path, options: headerOptions).header  // no pixel decoded
      let swaps = (5...8).contains(header.orientation)
      (width, height) = swaps ? (header.height, header.width) : (header.width, header.height)
      loadOptions.shrink = max(1, shrink(width, height))
    }
    let image = try load(
      path, options: loadOptions, keepSixteenBits: keepSixteenBits, convertsColour: convertsColour)
    return (image, width, height)
  }

  /// Opens `path` as an image; a camera raw or DNG is developed on LibRaw (``RawStill``, at half size
  /// when `options.shrink` is 2 or more), never read by a libvips loader; a video given where a still is
  /// expected is refused with a pointer to `framedial video`, not with the message of whichever image
  /// loader claimed its bytes.
  static func open(_ path: String, options: LoadOptions) throws -> Image {
    if let raw = RawStill.identify(path) {
      return try RawStill.developed(path, raw, options: options)
    }
    do {
      return try Image(contentsOf: path, options: options)
    } catch {
      guard let container = ImageSniffer.videoContainer(ofFile: path) else { throw error }
      throw RenderError(
        "\(path): a video (\(container)), not a still image: process it with framedial video IN -o OUT, "
          + "or take one frame with framedial video IN --frame-at T -o OUT.png")
    }
  }

  /// Brings an already loaded, upright image to sRGB 8/16-bit form.
  public static func prepare(
    _ loaded: Image, keepSixteenBits: Bool = true, convertsColour: Bool = true
  ) throws -> Image {
    var image = loaded
    let sixteen = image.format == .ushort || image.format == .short || image.format == .uint
    if convertsColour, image.hasICCProfile, !isSRGBProfile(try image.blob(Image.iccProfileField)) {
      image = try Operation.call(
        "icc_transform",
        [
          "in": .image(image), "output-profile": "srgb", "embedded": true,
          "depth": .int(sixteen && keepSixteenBits ? 16 : 8), "intent": "perceptual",
        ]
      ).image()
    }
    let grey = image.interpretation == "b-w" || image.interpretation == "grey16"
    let wantsSixteen = keepSixteenBits && sixteen
    switch (image.format, grey, wantsSixteen) {
    case (.uchar, _, _) where image.interpretation == "srgb" || grey:
      break
    case (.ushort, _, true)
    where image.interpretation == "rgb16" || image.interpretation == "grey16":
      break
    default:
      image = try image.colourspace(
        grey ? (wantsSixteen ? "grey16" : "b-w") : (wantsSixteen ? "rgb16" : "srgb"))
      if image.format != .uchar && image.format != .ushort {
        image = try image.cast(to: wantsSixteen ? .ushort : .uchar)
      }
    }
    return try image.settingOrientation(1)
  }

  /// True when an ICC profile describes sRGB by its content (colorants, white point and tone curves;
  /// see ``ICCProfile``), so pixels stay untouched rather than passing through a colour transform that
  /// could move them by a code value. Its name is never consulted; a profile that cannot be read is not
  /// sRGB.
  static func isSRGBProfile(_ profile: Data) -> Bool {
    ICCProfile(profile)?.isSRGB ?? false
  }
}
