import Foundation
import HEIF
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
        image = try open(path, options: loadOptions)
      }
      image = try image.autoRotated()
    }
    return try prepare(image, keepSixteenBits: keepSixteenBits, convertsColour: convertsColour)
  }

  /// Reads `path` for an output that will be made smaller, decoding it smaller when `shrink` allows
  /// (shrink-on-load, see `LoadOptions.shrink`): `shrink` is given the upright size of the full picture
  /// (EXIF orientations 5 … 8 swap its sides) and returns the factor. Returns the prepared image, which
  /// may be smaller than the file's picture, and that upright full size. The pixel limit is checked on
  /// the size decoded.
  public static func load(
    _ path: String, options: LoadOptions = LoadOptions(), keepSixteenBits: Bool = true,
    convertsColour: Bool = true, shrink: (_ uprightWidth: Int, _ uprightHeight: Int) -> Int
  ) throws -> (image: Image, uprightWidth: Int, uprightHeight: Int) {
    if ImageSniffer.kind(ofFile: path) == .heif {
      // libvips cannot decode a HEIF smaller, and reading its header reads the whole file: read it once.
      let image = try load(
        path, options: options, keepSixteenBits: keepSixteenBits, convertsColour: convertsColour)
      return (image, image.width, image.height)
    }
    var headerOptions = options
    headerOptions.pixelLimit = nil
    headerOptions.autoRotate = false
    let header = try open(path, options: headerOptions).header  // no pixel decoded
    let swaps = (5...8).contains(header.orientation)
    let (width, height) = swaps ? (header.height, header.width) : (header.width, header.height)
    var loadOptions = options
    loadOptions.shrink = max(1, shrink(width, height))
    let image = try load(
      path, options: loadOptions, keepSixteenBits: keepSixteenBits, convertsColour: convertsColour)
    return (image, width, height)
  }

  /// Opens `path` as an image; a video given where a still is expected is refused with a pointer to
  /// `framedial video`, not with the message of whichever image loader claimed its bytes.
  ///
  /// A HEIF file is read into memory once, and those bytes serve both libvips (the pixels) and libheif
  /// (the XMP packet among its metadata blocks, which libvips 8.14's `heifload` does not show): libheif
  /// reads a whole HEIF file to parse it, so a second reader would read it from disk again.
  static func open(_ path: String, options: LoadOptions) throws -> Image {
    do {
      guard ImageSniffer.kind(ofFile: path) == .heif else {
        return try Image(contentsOf: path, options: options)
      }
      let bytes = try Image.fileContents(path)
      let image = try Image(bytes: bytes, options: options, name: path)
      guard !image.hasField(Image.xmpField),
        let xmp = try? HEIFFile(bytes: bytes, name: path).xmp(), !xmp.isEmpty
      else { return image }
      return try image.editingMetadata { $0.setBlob(Image.xmpField, xmp) }
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
