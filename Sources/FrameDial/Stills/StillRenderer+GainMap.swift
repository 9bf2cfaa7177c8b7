import HEIF
import Raw
import Vips

extension StillRenderer {
  /// The HDR gain map a HEIC output of `input` carries, nil when it carries none: a HEIF input's
  /// Apple gain map (with its own XMP) when the output is HEIC, ``StillOptions/hdrPhoto`` keeps it and
  /// the render keeps an sRGB transfer and the EXIF (where the map's headroom is): no
  /// `--profile FILE.icc`, no `--strip`. (`--profile srgb` or `p3`
  /// converts the picture before the controls; a change of primaries scales the HDR rendition's
  /// light by the same factor as the SDR picture's, so the map holds for either.)
  ///
  /// A render that changes colour edits the map with it (``GainMapEdit``, at the map's own size, from
  /// `still`, the picture the plan runs on, brought to that size). The map then goes through the plan's
  /// geometry as the photo does: the zoom window, and the `rendered` size (before `--fit`), so that it
  /// keeps its proportion to the photo (a `--size` output of half the width has a map of half its
  /// width), then `--fit`'s scale and crop; `output` is the size written. The photo and the map are
  /// both upright as libheif turns them; `photo` is the upright photo's full size.
  static func keptGainMap(
    input: String, still: PreparedStill, photo: (width: Int, height: Int),
    rendered output: (width: Int, height: Int), output finalOutput: (width: Int, height: Int),
    plan: Plan, format: ImageFormat, options: StillOptions
  ) throws -> HEIFAuxiliaryPicture? {
    guard format == .heic, still.image.hasField(HDRGainMap.imageField),
      keepsGainMap(options: options)
    else { return nil }
    let file = try HEIFFile(path: input)
    guard var map = try file.decodeAuxiliaryImage(type: HEIFAuxiliaryImage.appleHDRGainMapType)
    else {
      guard !isApple(still.image) else { return nil }
      throw GainMapLeft(
        "FrameDial writes gain maps in Apple's form alone, and this one is in the ISO 21496-1 form")
    }
    map.quality = max(
      options.quality ?? QualityChoice.defaultQuality(for: .heic) ?? gainMapQuality, gainMapQuality)
    if let pipeline = plan.pipeline {
      guard let headroom = try HDRGainMap.read(file)?.headroom else {
        throw GainMapLeft(
          "no Apple maker note gives its headroom, which an edit needs")
      }
      guard
        let edit = GainMapEdit(
          pipeline: pipeline, autoGains: try autoGains(plan: plan, image: still.image),
          headroom: headroom,
          lumaWeights: still.encoding.primaries.lumaWeights)
      else {
        throw GainMapLeft(
          String(format: "its headroom, %.3f×, leaves no HDR light to edit", headroom))
      }
      let base = try eightBitRGB(still.image).thumbnailed(width: map.width, height: map.height)
      map.samples = edit.editedMap(
        base: try base.pixelBytes(), map: map.samples, width: map.width, height: map.height)
    }
    // A size of the photo's at the map's scale.
    func atMapScale(_ length: (width: Int, height: Int)) -> (width: Int, height: Int) {
      (
        max(1, Int((Double(map.width * length.width) / Double(photo.width)).rounded())),
        max(1, Int((Double(map.height * length.height) / Double(photo.height)).rounded()))
      )
    }
    let size = atMapScale(output)
    guard
      plan.zoom != nil || options.fit != nil || size.width != map.width
        || size.height != map.height
    else { return map }
    var shaped = try plan.lowered(
      on: try Image.fromPixels(map.samples, width: map.width, height: map.height, bands: 1),
      zoomKernel: options.zoomKernel, outputSize: size
    ) { $0 }
    if let fit = options.fit {
      shaped = try fitted(shaped, fit: fit, rendered: output)
    }
    let final = atMapScale(finalOutput)
    guard shaped.bands == 1, abs(shaped.width - final.width) <= 1,
      abs(shaped.height - final.height) <= 1
    else {
      throw VipsError(
        "the HDR gain map came out \(shaped.width)×\(shaped.height), not \(final.width)×\(final.height)"
      )
    }
    map.width = shaped.width
    map.height = shaped.height
    map.samples = try shaped.cast(to: .uchar).pixelBytes()
    return map
  }

  /// `map`, shaped for a render of `rendered` size, taken through `fit` as the photo is: scaled by the
  /// fit's factor and, for cover, centre-cropped, at the map's own scale.
  private static func fitted(_ map: Image, fit: ScreenFit, rendered: (width: Int, height: Int))
    throws -> Image
  {
    let scaled = fit.scaledSize(inputWidth: rendered.width, inputHeight: rendered.height)
    let cropped = fit.outputSize(inputWidth: rendered.width, inputHeight: rendered.height)
    guard max(scaled.width, scaled.height) <= ScreenFit.maximumScaledSide else {
      throw GainMapLeft("the fit crops it to an extreme shape")
    }
    let (xScale, yScale) = (
      Double(map.width) / Double(rendered.width), Double(map.height) / Double(rendered.height)
    )
    func atMapScale(_ length: Int, _ scale: Double) -> Int {
      max(1, Int((Double(length) * scale).rounded()))
    }
    let size = (atMapScale(scaled.width, xScale), atMapScale(scaled.height, yScale))
    let crop = (
      min(size.0, atMapScale(cropped.width, xScale)),
      min(size.1, atMapScale(cropped.height, yScale))
    )
    let resized = try map.thumbnailed(width: size.0, height: size.1)
    guard crop != size else { return resized }
    return try resized.extractArea(
      left: (size.0 - crop.0) / 2, top: (size.1 - crop.1) / 2, width: crop.0, height: crop.1)
  }

  /// The red, green and blue bands of `image` at 8 bits.
  private static func eightBitRGB(_ image: Image) throws -> Image {
    guard image.bands - (image.hasAlpha ? 1 : 0) == 3 else {
      throw RenderError("its picture is not RGB (\(image.bands) bands)")
    }
    let colour = image.bands == 3 ? image : try image.extractBands(0, count: 3)
    return colour.format == .ushort ? try RawStill.eightBits(colour) : colour
  }

  /// The least quality a kept gain map is encoded at. A decoded map carries its first encoding's
  /// noise, which costs bytes to keep: on an iPhone 13 Pro Max photo (a 1512 × 2016 map Apple coded
  /// in 98 KB) quality 60 took 165 KB and left 0.5 % of the samples 3 to 12 codes from the input's;
  /// 75 takes 390 KB and leaves 0.01 % of them 3 or 4 codes away (85: 600 KB, at most 3; 90: 660 KB,
  /// at most 2).
  static let gainMapQuality = 75

  /// True when a HEIC output of a render with `options` keeps an HDR photo's gain map (see
  /// ``keptGainMap(input:still:photo:rendered:output:plan:format:options:)``).
  static func keepsGainMap(options: StillOptions) -> Bool {
    guard options.hdrPhoto == .keep, options.metadata != .strip else {
      return false
    }
    switch options.profile {
    case .keep, .srgb, .p3: return true
    case .file: return false
    }
  }

  /// True when the gain map `image` notes (``HDRGainMap/kindField``) is Apple's, the form FrameDial
  /// keeps in a HEIC output.
  static func isApple(_ image: Image) -> Bool {
    (try? image.string(HDRGainMap.kindField)) == HDRGainMap.Kind.apple.rawValue
  }

  /// The warning for an HDR photo (a HEIF file with an HDR gain map, which `source`, the still read
  /// from it, notes in ``HDRGainMap/imageField``) whose output does not carry its gain map: the output
  /// is its SDR picture alone. `failure` says why a map that was to be kept was not (a
  /// ``GainMapLeft`` reason, or "it cannot be read: …"); `keptByHEIC` adds that a HEIC output of the
  /// same render keeps it.
  static func gainMapWarnings(
    source: Image, input: String, failure: String? = nil, keptByHEIC: Bool
  )
    -> [String]
  {
    guard let gainMap = try? source.string(HDRGainMap.imageField) else { return [] }
    return [
      "\(input): its HDR gain map (\(gainMap)) was not kept"
        + (failure.map { " (\($0))" } ?? "")
        + ": the output is its SDR picture, "
        + "which an HDR screen shows without the brighter highlights"
        + (keptByHEIC ? " (--format heic keeps it)" : "")
    ]
  }
}

/// Why an HDR photo's gain map, readable, is left out of a HEIC output, in words that follow "was not
/// kept" in the warning.
struct GainMapLeft: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
