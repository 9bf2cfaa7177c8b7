import Foundation
import Vips

/// A still read for writing, brought to the space its controls run in (see ``OutputProfile``).
struct PreparedStill {
  /// The upright 8- or 16-bit pixels, in the colour space ``encoding`` names.
  var image: Image
  /// The encoding the plan is compiled for: ``ColourEncoding/sRGB`` or ``ColourEncoding/displayP3``.
  var encoding: ColourEncoding
  /// The ICC profile the rendered pixels are converted into before they are written, and embedded; nil
  /// when they are written as they are, with the image's own profile (sRGB's when it has none).
  var export: Data?
  /// The bits a sample the export writes: 16 for a 16-bit input kept at 16 bits, else 8.
  var exportDepth = 8
  /// Why the picture is written in Display P3 rather than the profile asked for, when it is (see
  /// ``ProfileFallback``); nil otherwise.
  var fallback: ProfileFallback?

  /// The ICC profile the output will carry: the export, or the image's own (nil when it has none).
  func writtenProfile() throws -> Data? {
    if let export { return export }
    return image.hasICCProfile ? try image.blob(Image.iccProfileField) : nil
  }

  /// `rendered` (pixels in ``encoding``) converted into ``export`` and tagged with it; `rendered` itself
  /// when there is no export.
  ///
  /// The conversion goes device to device (`icc_transform`), which libvips takes an output profile for
  /// only as a file: the profile is written to a scratch file for the call. (Going through Lab floats,
  /// `icc_import` then `icc_export`, would need no file but is up to 12 code values off near black for
  /// a pure-power tone curve such as Adobe RGB's.)
  func exported(_ rendered: Image) throws -> Image {
    guard let export else { return rendered }
    return try AtomicFile.withScratchFile(
      named: "profile.icc", in: FileManager.default.temporaryDirectory.path
    ) { path in
      do {
        try export.write(to: URL(fileURLWithPath: path))
      } catch {
        throw RenderError("cannot write the output profile to the scratch file \(path)")
      }
      return try Operation.call(
        "icc_transform",
        [
          "in": .image(rendered), "embedded": false, "intent": "relative",
          "input-profile": .string(encoding.primaries == .displayP3 ? "p3" : "srgb"),
          "output-profile": .string(path), "depth": .int(exportDepth),
        ]
      ).image()
    }
  }
}

/// Why a still is written in Display P3 (libvips's profile embedded) rather than in the profile its
/// `--profile` asks for; the renderer says so in one warning (see `StillRenderer.profileWarning`).
enum ProfileFallback: Equatable {
  /// The picture's own profile converts only into the connection space (an input profile made of
  /// tables, such as a jpegli XYB JPEG's), so nothing can be converted back into it.
  case inputOnly
  /// The output format's writer refuses the profile (`profile` is the `--profile` file's path, nil
  /// for the picture's own); `illuminantNotD50` when its header records a connection-space
  /// illuminant other than D50 to the bit, which is why libpng refuses it.
  case refused(format: ImageFormat, profile: String?, illuminantNotD50: Bool)
}

extension StillInput {
  /// The kinds of input profile the choice of space depends on.
  private enum InputSpace {
    /// sRGB by its content, or no profile at all.
    case sRGB
    /// Display P3 by its content.
    case displayP3
    /// Any other RGB profile (Adobe RGB, ProPhoto, a camera's): its bytes.
    case otherRGB(Data)
    /// An RGB profile nothing can be converted into (see ``ICCProfile/canConvertInto(_:)``).
    case inputOnly
    /// CMYK, grey, or a profile that cannot be read.
    case other
  }

  /// ``prepare(_:keepSixteenBits:convertsColour:profile:)`` for an output in `format`: when the profile
  /// it would write is one `format`'s writer refuses (libpng refuses Kodak's ProPhoto RGB, whose
  /// illuminant is not D50 to the bit; see ``Vips/Image/saverKeepsProfile(_:format:bands:)``), the
  /// picture is brought to Display P3 instead and ``PreparedStill/fallback`` says why: a profile is
  /// never dropped, leaving pixels a viewer would take as sRGB.
  static func prepare(
    _ loaded: Image, keepSixteenBits: Bool, convertsColour: Bool, profile: OutputProfile,
    format: ImageFormat
  ) throws -> PreparedStill {
    let still = try prepare(
      loaded, keepSixteenBits: keepSixteenBits, convertsColour: convertsColour, profile: profile)
    guard let written = try still.writtenProfile(),
      !Image.saverKeepsProfile(written, format: format, bands: still.image.bands)
    else { return still }
    var converted = try prepare(
      loaded, keepSixteenBits: keepSixteenBits, convertsColour: true, profile: .p3)
    var path: String?
    if case .file(let file, _) = profile { path = file }
    converted.fallback = .refused(
      format: format, profile: path,
      illuminantNotD50: ICCProfile.hasIlluminantOtherThanD50(written))
    return converted
  }

  /// Brings an upright image (``upright(_:options:)``) to the space `profile` and the image's own
  /// profile call for (see ``OutputProfile``): converts it when needed and says which encoding its
  /// controls run in and which profile the result is written in. `convertsColour` false (no colour stage
  /// will run) keeps the pixels of ``OutputProfile/keep`` untouched.
  static func prepare(
    _ loaded: Image, keepSixteenBits: Bool, convertsColour: Bool, profile: OutputProfile
  ) throws -> PreparedStill {
    let space = try inputSpace(of: loaded)
    switch (profile, space) {
    case (.keep, .inputOnly):
      // Rendered and written in Display P3: wide enough for what such a profile describes (XYB
      // covers more than sRGB), and the space the controls run in for a wide-gamut picture anyway.
      var still = try prepare(
        loaded, keepSixteenBits: keepSixteenBits, convertsColour: true, profile: .p3)
      still.fallback = .inputOnly
      return still
    case (.keep, .displayP3), (.p3, .displayP3):
      return PreparedStill(
        image: try normalised(loaded, keepSixteenBits: keepSixteenBits), encoding: .displayP3)
    case (.keep, .otherRGB(let own)) where convertsColour:
      // Rendered at 16 bits, so the way there and back costs no 8-bit code value.
      return PreparedStill(
        image: try normalised(converted(loaded, to: "p3", depth: 16), keepSixteenBits: true),
        encoding: .displayP3, export: own,
        exportDepth: isSixteenBits(loaded) && keepSixteenBits ? 16 : 8)
    case (.keep, _):
      return PreparedStill(
        image: try prepare(
          loaded, keepSixteenBits: keepSixteenBits, convertsColour: convertsColour),
        encoding: .sRGB)
    case (.srgb, _):
      return PreparedStill(
        image: try prepare(loaded, keepSixteenBits: keepSixteenBits), encoding: .sRGB)
    case (.p3, _):
      return PreparedStill(
        image: try normalised(
          converted(
            rgb(loaded), to: "p3", depth: isSixteenBits(loaded) && keepSixteenBits ? 16 : 8),
          keepSixteenBits: keepSixteenBits),
        encoding: .displayP3)
    case (.file(_, let target), _):
      if ICCProfile(target)?.isSRGB == true {
        var still = try prepare(
          loaded, keepSixteenBits: keepSixteenBits, convertsColour: true, profile: .srgb)
        still.image = try still.image.editingMetadata { $0.setBlob(Image.iccProfileField, target) }
        return still
      }
      if ICCProfile(target)?.isDisplayP3 == true {
        var still = try prepare(
          loaded, keepSixteenBits: keepSixteenBits, convertsColour: true, profile: .p3)
        still.image = try still.image.editingMetadata { $0.setBlob(Image.iccProfileField, target) }
        return still
      }
      var still = try prepare(
        rgb(loaded), keepSixteenBits: keepSixteenBits, convertsColour: true, profile: .keep)
      still.fallback = nil  // converted into the file's profile all the same
      if still.export == nil {
        still.exportDepth = isSixteenBits(still.image) ? 16 : 8
      }
      still.export = target
      return still
    }
  }

  /// The kind of profile `image` carries.
  private static func inputSpace(of image: Image) throws -> InputSpace {
    guard image.hasICCProfile else { return .sRGB }
    let data = try image.blob(Image.iccProfileField)
    guard let profile = ICCProfile(data) else {
      guard ICCProfile.colourSpace(of: data) == "RGB ", image.bands >= 3,
        image.interpretation != "cmyk"
      else { return .other }
      return ICCProfile.canConvertInto(data) ? .otherRGB(data) : .inputOnly
    }
    if profile.isSRGB { return .sRGB }
    if profile.isDisplayP3 { return .displayP3 }
    return image.bands >= 3 ? .otherRGB(data) : .other
  }

  /// `image` as RGB when it is untagged grey (promoted to sRGB as ``prepare(_:keepSixteenBits:
  /// convertsColour:)`` does), so the sRGB profile assumed for it and the RGB profile it is converted
  /// into apply. A CMYK picture is returned as it is: ``converted(_:to:depth:)`` takes it from its own
  /// profile, or libvips's built-in CMYK one.
  private static func rgb(_ image: Image) throws -> Image {
    guard !image.hasICCProfile, image.interpretation != "srgb", image.interpretation != "rgb16",
      image.interpretation != "cmyk"
    else { return image }
    return try image.colourspace(isSixteenBits(image) ? "rgb16" : "srgb")
  }
}
