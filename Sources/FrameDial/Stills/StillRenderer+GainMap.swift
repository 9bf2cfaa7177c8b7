import HEIF
import Vips

extension StillRenderer {
  /// The HDR gain map a HEIC output of `input` carries, nil when it carries none: a HEIF input's
  /// Apple gain map (with its own XMP) when the output is HEIC and the render changes no light or
  /// colour (an identity plan: no control moved, no `--fit`, the picture's own colour space and its
  /// EXIF, where the map's headroom is, kept) and ``StillOptions/hdrPhoto`` keeps it. The map keeps its proportion to the photo: a `--size`
  /// output of half the width has a map of half its width. The photo and the map are both upright
  /// as libheif turns them.
  static func keptGainMap(
    input: String, source: Image, output: (width: Int, height: Int), plan: Plan,
    format: ImageFormat, options: StillOptions
  ) throws -> HEIFAuxiliaryPicture? {
    guard format == .heic, source.hasField(HDRGainMap.imageField),
      keepsGainMap(plan: plan, options: options)
    else { return nil }
    let file = try HEIFFile(path: input)
    guard var map = try file.decodeAuxiliaryImage(type: HEIFAuxiliaryImage.appleHDRGainMapType)
    else { return nil }
    map.quality = max(
      options.quality ?? QualityChoice.defaultQuality(for: .heic) ?? gainMapQuality, gainMapQuality)
    let photo = file.size
    let width = max(1, Int((Double(map.width * output.width) / Double(photo.width)).rounded()))
    let height = max(1, Int((Double(map.height * output.height) / Double(photo.height)).rounded()))
    guard width != map.width || height != map.height else { return map }
    let resized = try Image.fromPixels(map.samples, width: map.width, height: map.height, bands: 1)
      .resized(
        by: Double(width) / Double(map.width), vscale: Double(height) / Double(map.height))
    guard resized.width == width, resized.height == height, resized.bands == 1 else {
      throw VipsError(
        "the HDR gain map resized to \(resized.width)×\(resized.height), not \(width)×\(height)")
    }
    map.width = width
    map.height = height
    map.samples = try resized.cast(to: .uchar).pixelBytes()
    return map
  }

  /// The least quality a kept gain map is encoded at. A decoded map carries its first encoding's
  /// noise, which costs bytes to keep: on an iPhone 13 Pro Max photo (a 1512 × 2016 map Apple coded
  /// in 98 KB) quality 60 took 165 KB and left 0.5 % of the samples 3 to 12 codes from the input's;
  /// 75 takes 390 KB and leaves 0.01 % of them 3 or 4 codes away (85: 600 KB, at most 3; 90: 660 KB,
  /// at most 2).
  static let gainMapQuality = 75

  /// True when a HEIC output of a render by `plan` with `options` keeps an HDR photo's gain map (see
  /// ``keptGainMap(input:source:output:plan:format:options:)``).
  static func keepsGainMap(plan: Plan, options: StillOptions) -> Bool {
    options.hdrPhoto == .keep && plan.recipe.isIdentity && options.fit == nil
      && options.profile == .keep && options.metadata != .strip
  }

  /// The warning for an HDR photo (a HEIF file with an HDR gain map, which `source`, the still read
  /// from it, notes in ``HDRGainMap/imageField``) whose output does not carry its gain map: the output
  /// is its SDR picture alone. `failure` says why a map that was to be kept could not be read;
  /// `keptByHEIC` adds that a HEIC output of the same render keeps it.
  static func gainMapWarnings(
    source: Image, input: String, failure: String? = nil, keptByHEIC: Bool
  )
    -> [String]
  {
    guard let gainMap = try? source.string(HDRGainMap.imageField) else { return [] }
    return [
      "\(input): its HDR gain map (\(gainMap)) was not kept"
        + (failure.map { " (it cannot be read: \($0))" } ?? "")
        + ": the output is its SDR picture, "
        + "which an HDR screen shows without the brighter highlights"
        + (keptByHEIC ? " (--format heic keeps it)" : "")
    ]
  }
}
