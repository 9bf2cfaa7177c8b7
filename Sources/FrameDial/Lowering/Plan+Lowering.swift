import Vips

extension Plan {
  /// The libvips graph for this plan on `image` (an upright RGB image in the plan's encoding, or grey; 8 or
  /// 16 bits, alpha last):
  /// cut the whole pixels around the zoom window (see ``ZoomWindow``), run the colour program on them,
  /// resample the real-valued window back to full size. Without a zoom or `outputSize` nothing is
  /// resampled.
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
    return try lowered(on: image, zoomKernel: zoomKernel, outputSize: outputSize) {
      try program.lowered(on: $0)
    }
  }

  /// The plan's geometry around `colour`, the one lowering stills and frames share: `colour` runs once,
  /// on the pixels the plan colours (the zoom window's whole pixels, or the picture already reduced to
  /// a smaller `outputSize`), and its result is brought to the output size as
  /// ``lowered(on:autoGains:zoomKernel:outputSize:)`` describes.
  func lowered(
    on image: Image, zoomKernel: ZoomKernel, outputSize: (width: Int, height: Int)? = nil,
    colouring colour: (Image) throws -> Image
  ) throws -> Image {
    let size = outputSize ?? (image.width, image.height)
    guard let zoom else {
      if size.width <= image.width && size.height <= image.height {
        let fitted =
          size.width == image.width && size.height == image.height
          ? image : try image.thumbnailed(width: size.width, height: size.height)
        return try colour(fitted)
      }
      return try colour(image).enlarged(to: size.width, size.height, kernel: zoomKernel)
    }
    let window = zoom.window(imageWidth: image.width, imageHeight: image.height)
    if Double(size.width) <= window.width && Double(size.height) <= window.height {
      return try colour(image.zoomReduced(window, to: size, kernel: zoomKernel))
    }
    let bounds = window.pixelBounds(margin: ZoomWindow.interpolationMargin)
    let coloured = try colour(image.extractArea(bounds))
    return try coloured.resampled(
      window.relative(to: bounds), to: size.width, size.height, kernel: zoomKernel)
  }
}

extension ZoomWindow {
  /// The neighbours beyond the window that the interpolators read: 2 for bicubic, 3 for Lanczos 3.
  static let interpolationMargin = 3
}

extension Image {
  /// The pixels of `rect`.
  func extractArea(_ rect: PixelRect) throws -> Image {
    try extractArea(left: rect.x, top: rect.y, width: rect.width, height: rect.height)
  }

  /// The zoom window of this image brought to `width × height` (see ``ZoomWindow``): output pixel `X`
  /// samples the image at `window.left + (X + 0.5) · window.width / width − 0.5` (likewise rows).
  /// A window that is the whole image at its own size is the image itself, untouched.
  func resampled(_ window: ZoomWindow, to width: Int, _ height: Int, kernel: ZoomKernel) throws
    -> Image
  {
    let area = (left: window.left, top: window.top, width: window.width, height: window.height)
    if area == (0, 0, Double(width), Double(height)) && width == self.width
      && height == self.height
    {
      return self
    }
    if kernel == .bilinear && format == .uchar {
      return try resizedBilinear(width: width, height: height, window: area)
    }
    let scaleX = Double(width) / area.width
    let scaleY = Double(height) / area.height
    // affine maps input (x + idx) to output scale·(x + idx) + odx: output pixel X then samples input
    // (X + 0.5) / scale − 0.5 + left, pixel centres onto pixel centres.
    return try Operation.call(
      "affine",
      [
        "in": .image(self), "matrix": .doubles([scaleX, 0, 0, scaleY]),
        "interpolate": .string(kernel == .bilinear ? "bilinear" : "bicubic"),
        "oarea": .ints([0, 0, width, height]), "idx": .double(0.5 - area.left),
        "idy": .double(0.5 - area.top), "odx": -0.5, "ody": -0.5, "extend": "copy",
      ]
    ).image()
  }

  /// The image resized to `width × height`, mapping output pixel centres onto input pixel centres.
  func enlarged(to width: Int, _ height: Int, kernel: ZoomKernel) throws -> Image {
    try resampled(
      ZoomWindow(imageWidth: self.width, imageHeight: self.height, zoom: 1), to: width, height,
      kernel: kernel)
  }

  /// The zoom window brought down to `size` (no larger than the window): the whole pixels around it
  /// (with Lanczos 3's reach beyond it) are reduced with Lanczos 3 (libvips `resize`, pixel centres
  /// aligned) by `size / window`, then the window's fractional offset in the reduced picture is
  /// resampled with `kernel` at scale 1. Alpha is premultiplied while resampling, as the thumbnailer does.
  func zoomReduced(_ window: ZoomWindow, to size: (width: Int, height: Int), kernel: ZoomKernel)
    throws -> Image
  {
    let scaleX = Double(size.width) / window.width
    let scaleY = Double(size.height) / window.height
    let reach = Int((Double(ZoomWindow.interpolationMargin) / min(scaleX, scaleY)).rounded(.up))
    let bounds = window.pixelBounds(margin: reach + 1)
    let relative = window.relative(to: bounds)
    let maxAlpha: Argument = .double(format == .ushort ? 65535 : 255)
    var source = try extractArea(bounds)
    if hasAlpha {
      source = try Operation.call("premultiply", ["in": .image(source), "max_alpha": maxAlpha])
        .image()
    }
    let reduced = try source.resized(by: scaleX, vscale: scaleY)
    let shifted = ZoomWindow(
      left: relative.left * scaleX, top: relative.top * scaleY, width: Double(size.width),
      height: Double(size.height), imageWidth: reduced.width, imageHeight: reduced.height)
    let result = try reduced.resampled(shifted, to: size.width, size.height, kernel: kernel)
    guard hasAlpha else { return result }
    return try Operation.call("unpremultiply", ["in": .image(result), "max_alpha": maxAlpha])
      .image().cast(to: format)
  }
}
