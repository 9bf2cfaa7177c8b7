import Vips

extension ViewfinderSource {
  /// A viewfinder for a video whose frames have `shape` and codes in `encoding`, showing `firstFrame`
  /// (packed RGB at the coded size: 8-bit for sRGB, 16-bit for HLG or PQ): frames are turned upright,
  /// given square pixels and scaled down to fit the viewfinder of `device` held in `orientation`,
  /// and at most `maxWidth` pixels wide, as a still is (see ``videoPixels(of:)``).
  ///
  /// - Throws: ``RenderError`` when the frame's buffer does not match `shape` or cannot be scaled.
  public init(
    firstFrame: UnsafeRawBufferPointer, shape: VideoFrameShape, device: ScreenDevice,
    orientation: ScreenOrientation = .portrait, maxWidth: Int = 1920,
    encoding: ColourEncoding = .sRGB
  ) throws {
    let display = shape.displaySize
    layout = PreviewLayout.make(
      device: device, orientation: orientation, imageWidth: display.width,
      imageHeight: display.height)
    let size = Self.fittedSize(
      width: display.width, height: display.height, into: layout.viewfinder.width,
      maxWidth: max(1, maxWidth))
    (width, height) = size
    video = shape
    self.encoding = encoding
    pixels = []
    pixels = try videoPixels(of: firstFrame)
  }

  /// A decoded video frame (packed RGB of ``sampleBytes`` at the coded size of ``video``) as this
  /// viewfinder shows it: upright, square pixels, `width × height`, packed RGB of the same depth.
  ///
  /// - Throws: ``RenderError`` when this is not a video's viewfinder, the buffer does not match the
  ///   coded size, or libvips cannot scale the frame.
  public func videoPixels(of frame: UnsafeRawBufferPointer) throws -> [UInt8] {
    var pixels: [UInt8] = []
    try videoPixels(of: frame, into: &pixels)
    return pixels
  }

  /// ``videoPixels(of:)`` written into `pixels`, whose memory is reused when it holds the viewfinder's
  /// bytes already and no other array shares it (a player that keeps two buffers in turn allocates
  /// nothing a frame); its contents are replaced. libvips computes the picture straight into it.
  ///
  /// - Throws: ``RenderError`` as ``videoPixels(of:)``.
  public func videoPixels(of frame: UnsafeRawBufferPointer, into pixels: inout [UInt8]) throws {
    guard let video else { throw RenderError("the viewfinder shows a still, not video frames") }
    do {
      var image = try Image(
        wrapping: frame,
        layout: FrameLayout(
          width: video.codedWidth, height: video.codedHeight, bands: 3, sampleBytes: sampleBytes))
      // Scaled while still as coded (fewer pixels to turn), to the size that is upright `width ×
      // height`; the sample aspect goes into the same resize.
      let coded =
        video.turnsQuarter ? (width: height, height: width) : (width: width, height: height)
      if image.width != coded.width || image.height != coded.height {
        image = try Self.scaled(image, width: coded.width, height: coded.height)
      }
      let orientation = video.orientation
      if orientation != 1 { image = try image.settingOrientation(orientation).autoRotated() }
      let layout = FrameLayout(
        width: image.width, height: image.height, bands: 3, sampleBytes: sampleBytes)
      if pixels.count != layout.requiredBytes {
        pixels = [UInt8](repeating: 0, count: layout.requiredBytes)
      }
      try pixels.withUnsafeMutableBytes { try image.render(into: $0, layout: layout) }
    } catch let error as VipsError {
      throw RenderError("cannot scale a video frame for the viewfinder: \(error.message)")
    }
  }

  /// `frame` scaled to `width` × `height`. HDR frames (16-bit codes) shrunk by less than 4 on each
  /// axis, as a 1080p or 4K frame is for a phone's viewfinder, take FrameDial's 16-bit Lanczos 3
  /// kernels: libvips's own 16-bit resampling took most of an HDR viewfinder frame's time. Anything
  /// else is scaled as a still's preview is.
  static func scaled(_ frame: Image, width: Int, height: Int) throws -> Image {
    let reduces = width <= frame.width && height <= frame.height
    if frame.format == .ushort, reduces, frame.width < 4 * width, frame.height < 4 * height {
      return try frame.reducedByLanczos3(toWidth: width, height: height)
    }
    return try frame.thumbnailed(width: width, height: height)
  }
}
