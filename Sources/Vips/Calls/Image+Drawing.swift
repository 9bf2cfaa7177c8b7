/// Typed conveniences for drawing pictures out of images: solid fills, text, placing one image on another
/// and resizing to an exact size. Colours are 8-bit values per band.
extension Image {
  /// One place where an RGBA layer goes on a base image (its top-left corner, in pixels).
  public struct Layer: Sendable {
    /// The layer, four bands (RGB and alpha).
    public var image: Image
    /// Its left edge on the base.
    public var x: Int
    /// Its top edge on the base.
    public var y: Int

    /// Creates a layer placed at `x`, `y`.
    public init(_ image: Image, x: Int, y: Int) {
      self.image = image
      self.x = x
      self.y = y
    }
  }

  /// An 8-bit image of `width × height` filled with `color` (one value per band: 3 for RGB, 4 for RGBA).
  public static func solid(width: Int, height: Int, color: [Double]) throws -> Image {
    guard width > 0, height > 0, !color.isEmpty else {
      throw VipsError("cannot make a \(width)×\(height) fill of \(color.count) bands")
    }
    let black = try Operation.call(
      "black", ["width": .int(width), "height": .int(height), "bands": .int(1)]
    ).image()
    let fill = try black.linear(color.map { _ in 0 }, color, uchar: true)
    return color.count >= 3 ? try fill.interpreted(as: "srgb") : fill
  }

  /// The same pixels with libvips's interpretation set to `interpretation` ("srgb", "b-w", …).
  public func interpreted(as interpretation: String) throws -> Image {
    try Operation.call(
      "copy", ["in": .image(self), "interpretation": .string(interpretation)]
    ).image()
  }

  /// `text` rendered by libvips (Pango markup allowed) as an 8-bit RGBA image in `color`, its alpha the
  /// glyph coverage. `font` is a Pango font description ("DejaVu Sans Bold 16"); `dpi` sets how many
  /// pixels a point covers (72 × a screen's scale factor gives sizes in the screen's points); `wrapWidth`
  /// wraps lines at that many pixels.
  public static func text(
    _ text: String, font: String, dpi: Int, color: [Double], wrapWidth: Int? = nil,
    align: String = "low"
  ) throws -> Image {
    var arguments: [String: Argument] = [
      "text": .string(text), "font": .string(font), "dpi": .int(dpi), "align": .string(align),
    ]
    if let wrapWidth { arguments["width"] = .int(max(1, wrapWidth)) }
    let mask = try Operation.call("text", arguments).image()
    let opacity = color.count > 3 ? color[3] / 255 : 1
    let fill = try mask.linear([0, 0, 0], Array(color.prefix(3)), uchar: true)
    let alpha = opacity == 1 ? mask : try mask.linear([opacity], [0], uchar: true)
    return try joinBands([fill, alpha]).interpreted(as: "srgb")
  }

  /// This image with `layers` (RGBA) composited over it with the "over" blend mode, in one pass. The
  /// result has this image's bands: an RGB base stays RGB. Pixels no layer covers keep their values.
  public func compositing(_ layers: [Layer]) throws -> Image {
    guard !layers.isEmpty else { return self }
    let base = hasAlpha ? self : try appendingOpaqueAlpha()
    let result = try Operation.call(
      "composite",
      [
        "in": .images([base] + layers.map(\.image)),
        "mode": .ints(layers.map { _ in 2 }),  // VIPS_BLEND_MODE_OVER
        "x": .ints(layers.map(\.x)), "y": .ints(layers.map(\.y)),
      ]
    ).image()
    let cast = try result.cast(to: .uchar)
    return hasAlpha ? cast : try cast.extractBands(0, count: bands)
  }

  /// This image with `sub` pasted over it at `x`, `y` (no blending; `sub` is clipped to this image).
  public func inserting(_ sub: Image, x: Int, y: Int) throws -> Image {
    try Operation.call(
      "insert", ["main": .image(self), "sub": .image(sub), "x": .int(x), "y": .int(y)]
    ).image()
  }

  /// The image resized to exactly `width × height` pixels (libvips's thumbnailer with forced size:
  /// alpha is premultiplied while resampling). Pass sizes with the image's aspect ratio to keep it.
  /// A 16-bit image stays 16-bit (resampled by the same Lanczos 3 `resize` the thumbnailer uses, which
  /// would otherwise end in 8-bit sRGB).
  public func thumbnailed(width: Int, height: Int) throws -> Image {
    guard width > 0, height > 0 else {
      throw VipsError("cannot resize to \(width)×\(height) pixels")
    }
    if format == .ushort {
      let most: Argument = .double(65535)
      let source =
        hasAlpha
        ? try Operation.call("premultiply", ["in": .image(self), "max_alpha": most]).image() : self
      var result = try source.resized(
        by: Double(width) / Double(self.width), vscale: Double(height) / Double(self.height))
      if hasAlpha {
        result = try Operation.call("unpremultiply", ["in": .image(result), "max_alpha": most])
          .image()
      }
      return try result.cast(to: .ushort)
    }
    if let reduced = try reducedByLanczos3(width: width, height: height) { return reduced }
    return try Operation.call(
      "thumbnail_image",
      [
        "in": .image(self), "width": .int(width), "height": .int(height), "size": "force",
        "no-rotate": true,
      ]
    ).image()
  }

  /// The thumbnailer's Lanczos 3 resampling done by libvips's `reducev` and FrameDial's horizontal
  /// kernel (libvips's own `reduceh` has no SIMD path for 8-bit images and takes most of the time), for
  /// 8-bit grey or RGB images without alpha shrunk by at most 2 on each axis (where the thumbnailer
  /// resamples without a box pre-shrink); nil for anything else.
  private func reducedByLanczos3(width: Int, height: Int) throws -> Image? {
    guard format == .uchar, !hasAlpha, bands == 1 || bands == 3, width < self.width,
      height <= self.height, self.width <= 2 * width, self.height <= 2 * height
    else { return nil }
    var image = self
    if height < self.height {
      image = try Operation.call(
        "reducev",
        [
          "in": .image(self), "vshrink": .double(Double(self.height) / Double(height)),
          "kernel": "lanczos3",
        ]
      ).image()
      guard image.height == height else { return nil }
    }
    return try image.reducedHorizontally(toWidth: width)
  }

  /// The image without its alpha band, blended onto `background` (one value per colour band).
  public func flattened(background: [Double]) throws -> Image {
    guard hasAlpha else { return self }
    return try Operation.call(
      "flatten", ["in": .image(self), "background": .doubles(background)]
    ).image().cast(to: format == .ushort ? .ushort : .uchar)
  }

  /// The image with a fully opaque alpha band appended (255 for 8 bits, 65535 for 16).
  public func appendingOpaqueAlpha() throws -> Image {
    let maximum: Double = format == .ushort ? 65535 : 255
    return try Operation.call(
      "bandjoin_const", ["in": .image(self), "c": .doubles([maximum])]
    ).image()
  }

  /// The image computed once into memory (8-bit images; others are returned as they are), so that
  /// several pipelines built on it do not each recompute it. Keeps the interpretation.
  public func materialized() throws -> Image {
    guard format == .uchar else { return self }
    return try Image.fromPixels(pixelBytes(), width: width, height: height, bands: bands)
      .interpreted(as: interpretation)
  }
}
