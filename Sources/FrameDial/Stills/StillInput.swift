import Foundation
import HEIF
import Raw
import Vips

/// Reads a still and brings it to the form the compiled plans work on (image-math.md, "Before the math"):
/// upright (EXIF orientation applied, orientation 1), sRGB (other ICC profiles and CMYK converted),
/// 8 or 16 bits, grey kept as one band, alpha kept last.
///
/// When no colour stage will run (`convertsColour` false: the identity, or a zoom alone), an RGB or grey
/// image whose ICC profile is not sRGB keeps its pixels and its profile untouched, so the output is
/// bit-exact and still displays correctly; a CMYK image is converted from its own profile all the same.
public enum StillInput {
  /// Reads `path` and prepares it. `keepSixteenBits` false converts 16-bit images to 8 bits. A sequential
  /// read is turned into a random-access one when the image must be rotated.
  public static func load(
    _ path: String, options: LoadOptions = LoadOptions(), keepSixteenBits: Bool = true,
    convertsColour: Bool = true
  ) throws -> Image {
    try prepare(
      upright(path, options: options), keepSixteenBits: keepSixteenBits,
      convertsColour: convertsColour)
  }

  /// Reads `path` and turns it upright (EXIF orientation applied), without converting its pixels. A
  /// sequential read is turned into a random-access one when the image must be rotated.
  static func upright(_ path: String, options: LoadOptions) throws -> Image {
    var loadOptions = options
    loadOptions.autoRotate = false
    var image = try open(path, options: loadOptions)
    if image.orientation != 1 {
      // Turning the pixels needs random access: reopen (only the header has been read so far).
      if loadOptions.sequential {
        loadOptions.sequential = false
        image = try open(path, options: loadOptions)
      }
      image = try image.autoRotated()
    }
    return image
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
    let (upright, width, height) = try uprightShrunk(path, options: options, shrink: shrink)
    let image = try prepare(
      upright, keepSixteenBits: keepSixteenBits, convertsColour: convertsColour)
    return (image, width, height)
  }

  /// Reads `path` upright for an output that will be made smaller, decoding it smaller when `shrink`
  /// allows (see ``load(_:options:keepSixteenBits:convertsColour:shrink:)``), with the upright size of
  /// the full picture. A HEIF file is read whole once: libvips cannot decode it smaller, and reading
  /// its header would read the whole file a first time. `jpegEighths`, given the same upright size,
  /// picks the DCT scale of a JPEG (`LoadOptions.jpegEighths`; 8, libvips alone, when not given).
  static func uprightShrunk(
    _ path: String, options: LoadOptions,
    jpegEighths: (_ uprightWidth: Int, _ uprightHeight: Int) -> Int = { _, _ in 8 },
    shrink: (_ uprightWidth: Int, _ uprightHeight: Int) -> Int
  ) throws -> (image: Image, uprightWidth: Int, uprightHeight: Int) {
    if ImageSniffer.kind(ofFile: path) == .heif {
      let image = try upright(path, options: options)
      return (image, image.width, image.height)
    }
    var (loadOptions, width, height) = try shrinking(path, options: options, shrink: shrink)
    if ImageSniffer.kind(ofFile: path) == .jpeg {
      loadOptions.jpegEighths = jpegEighths(width, height)
      // A DCT-scaled JPEG is decoded whole into memory when opened: a rotated one needs no second read.
      if loadOptions.jpegEighths < 8 { loadOptions.sequential = false }
    }
    return (try upright(path, options: loadOptions), width, height)
  }

  /// `options` with the shrink-on-load factor `shrink` picks for `path`'s upright size, and that size.
  static func shrinking(
    _ path: String, options: LoadOptions, shrink: (_ uprightWidth: Int, _ uprightHeight: Int) -> Int
  ) throws -> (options: LoadOptions, uprightWidth: Int, uprightHeight: Int) {
    var headerOptions = options
    headerOptions.pixelLimit = nil
    headerOptions.autoRotate = false
    let width: Int
    let height: Int
    var loadOptions = options
    if let raw = RawStill.identify(path) {
      let facts = try RawStill.facts(path, raw)  // already upright
      (width, height) = (facts.width, facts.height)
      loadOptions.shrink = RawStill.shrink(width: width, height: height, by: shrink)
    } else {
      let header = try open(path, options: headerOptions).header  // no pixel decoded
      let swaps = (5...8).contains(header.orientation)
      (width, height) = swaps ? (header.height, header.width) : (header.width, header.height)
      loadOptions.shrink = max(1, shrink(width, height))
    }
    return (loadOptions, width, height)
  }

  /// Opens `path` as an image; a camera raw or DNG is developed on LibRaw (`RawStill`, at half size
  /// when `options.shrink` is 2 or more), never read by a libvips loader; a video given where a still is
  /// expected is refused with a pointer to `framedial video`, not with the message of whichever image
  /// loader claimed its bytes.
  ///
  /// A HEIF file (HEIC or AVIF) is read into memory once, and those bytes serve both libvips (the
  /// pixels) and libheif (the XMP packet among its metadata blocks, which libvips 8.14's `heifload`
  /// does not show, and an HDR gain map, noted in ``HDRGainMap/imageField`` and
  /// ``HDRGainMap/kindField`` for the warning that an edit leaves it behind): libheif reads a whole
  /// HEIF file to parse it, so a second reader would read it from disk again.
  static func open(_ path: String, options: LoadOptions) throws -> Image {
    if let raw = RawStill.identify(path) {
      return try RawStill.developed(path, raw, options: options)
    }
    do {
      let kind = ImageSniffer.kind(ofFile: path)
      guard kind == .heif || kind == .avif else {
        return try Image(contentsOf: path, options: options)
      }
      let bytes = try Image.fileContents(path)
      let image = try Image(bytes: bytes, options: options, name: path)
      let file = try? HEIFFile(bytes: bytes, name: path)
      let xmp = image.hasField(Image.xmpField) ? nil : (try? file?.xmp()) ?? nil
      let gainMap = (try? file.flatMap(HDRGainMap.read)) ?? nil
      guard xmp?.isEmpty == false || gainMap != nil else { return image }
      return try image.editingMetadata { editor in
        if let xmp, !xmp.isEmpty { editor.setBlob(Image.xmpField, xmp) }
        if let gainMap {
          editor.setString(HDRGainMap.imageField, gainMap.described)
          editor.setString(HDRGainMap.kindField, gainMap.kind.rawValue)
        }
      }
    } catch {
      guard let container = ImageSniffer.videoContainer(ofFile: path) else { throw error }
      throw RenderError(
        "\(path): a video (\(container)), not a still image: process it with framedial video IN -o OUT, "
          + "or take one frame with framedial video IN --frame-at T -o OUT.png")
    }
  }

  /// Brings an already loaded, upright image to sRGB 8/16-bit form. `convertsColour` false keeps the
  /// pixels and profile of an RGB or grey picture as they are (see `keepsPixels(_:profile:)`); a
  /// CMYK picture is converted all the same, from its own profile or, when it has none, from
  /// libvips's built-in CMYK profile (never through libvips's colour-space conversion, which takes the
  /// built-in profile even when the picture has its own, and leaves it attached to the RGB result).
  public static func prepare(
    _ loaded: Image, keepSixteenBits: Bool = true, convertsColour: Bool = true
  ) throws -> Image {
    var image = loaded
    let depth = isSixteenBits(image) && keepSixteenBits ? 16 : 8
    if image.interpretation == "cmyk" {
      image = try converted(image, to: "srgb", depth: depth)
    } else if image.hasICCProfile {
      let profile = try image.blob(Image.iccProfileField)
      if !isSRGBProfile(profile), convertsColour || !keepsPixels(image, profile: profile) {
        image = try converted(image, to: "srgb", depth: depth)
      }
    }
    return try normalised(image, keepSixteenBits: keepSixteenBits)
  }

  /// True when `image` can be written with its pixels and its ICC `profile` as they are: an RGB
  /// profile on RGB pixels, or a grey profile on grey ones (FrameDial writes RGB or grey; a CMYK
  /// picture taken through libvips's colour-space conversion would lose its own profile for libvips's
  /// built-in one: a mean ΔE2000 of 4 on a SWOP photo).
  static func keepsPixels(_ image: Image, profile: Data) -> Bool {
    switch ICCProfile.colourSpace(of: profile) {
    case "RGB ": return image.bands >= 3
    case "GRAY": return image.bands <= 2
    default: return false
    }
  }

  /// `image` converted from its embedded profile into libvips's built-in profile `name` ("srgb" or
  /// "p3"), which it then carries, with `depth` (8 or 16) bits a sample. A picture with no usable
  /// profile of its own is taken as sRGB, or as libvips's built-in CMYK profile when it is CMYK.
  static func converted(_ image: Image, to name: String, depth: Int) throws -> Image {
    try Operation.call(
      "icc_transform",
      [
        "in": .image(image), "output-profile": .string(name),
        "input-profile": image.interpretation == "cmyk" ? "cmyk" : "srgb",
        "embedded": true, "depth": .int(depth),
        "intent": "perceptual",
      ]
    ).image()
  }

  /// True when `image` holds more than 8 bits a sample.
  static func isSixteenBits(_ image: Image) -> Bool {
    image.format == .ushort || image.format == .short || image.format == .uint
  }

  /// `image` as 8-bit or 16-bit RGB (or grey), orientation 1; the code values are not converted between
  /// colour spaces.
  static func normalised(_ loaded: Image, keepSixteenBits: Bool) throws -> Image {
    var image = loaded
    let grey = image.interpretation == "b-w" || image.interpretation == "grey16"
    let wantsSixteen = keepSixteenBits && isSixteenBits(image)
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
