import Vips

extension Plan {
  /// The libvips graph for this plan on `image` (an upright sRGB or grey image, 8 or 16 bits, alpha last):
  /// crop the zoom window, run the colour program on the window, enlarge the window back to full size.
  ///
  /// With an `outputSize` (`--size`), the window is brought straight to that size instead: a smaller
  /// output is resized first (Lanczos 3, as ``ScreenFit`` does) so the colour runs on fewer pixels; a
  /// larger one is coloured first and enlarged with `zoomKernel`.
  ///
  /// - Parameters:
  ///   - autoGains: measured white-balance gains when the plan needs them (see ``AutoWhiteBalance``).
  ///   - zoomKernel: how the window is enlarged.
  ///   - outputSize: the size of the result; nil keeps `image`'s size.
  func lowered(
    on image: Image, autoGains: SIMD3<Double> = SIMD3(1, 1, 1), zoomKernel: ZoomKernel,
    outputSize: (width: Int, height: Int)? = nil
  ) throws -> Image {
    let program = needsAutoWhiteBalance ? colorProgram(autoGains: autoGains) : colorProgram
    var window = image
    if let zoom {
      let rect = zoom.window(imageWidth: image.width, imageHeight: image.height)
      window = try image.extractArea(
        left: rect.left, top: rect.top, width: rect.width, height: rect.height)
    }
    let size = outputSize ?? (image.width, image.height)
    if size.width <= window.width && size.height <= window.height {
      let fitted =
        size.width == window.width && size.height == window.height
        ? window : try window.thumbnailed(width: size.width, height: size.height)
      return try program.lowered(on: fitted)
    }
    let coloured = try program.lowered(on: window)
    return try coloured.enlarged(to: size.width, size.height, kernel: zoomKernel)
  }
}

extension Image {
  /// The image resized to `width × height`, mapping output pixel centres onto input pixel centres.
  func enlarged(to width: Int, _ height: Int, kernel: ZoomKernel) throws -> Image {
    if width == self.width && height == self.height { return self }
    if kernel == .bilinear && format == .uchar {
      return try resizedBilinear(width: width, height: height)
    }
    let scaleX = Double(width) / Double(self.width)
    let scaleY = Double(height) / Double(self.height)
    // affine maps input (x + idx) to output scale·(x + idx) + odx: idx 0.5 and odx −0.5 put output
    // pixel centres onto input pixel centres.
    return try Operation.call(
      "affine",
      [
        "in": .image(self), "matrix": .doubles([scaleX, 0, 0, scaleY]),
        "interpolate": .string(kernel == .bilinear ? "bilinear" : "bicubic"),
        "oarea": .ints([0, 0, width, height]), "idx": 0.5, "idy": 0.5, "odx": -0.5, "ody": -0.5,
        "extend": "copy",
      ]
    ).image()
  }
}
