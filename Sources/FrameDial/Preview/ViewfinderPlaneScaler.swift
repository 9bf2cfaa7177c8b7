import RowKernels
import Vips

/// Makes an HDR video viewfinder's picture (``ViewfinderSource/videoPixels(of:into:)``'s packed 16-bit
/// R′G′B′) from a frame's decoded 10-bit Y′CbCr 4:2:0 planes, scaling before it converts: the luma
/// plane is scaled to the picture's size and each chroma plane to half of it, by the same Lanczos 3
/// kernels (each output rounded to a 10-bit code), and the conversion, its chroma upsampling
/// included, then runs at the viewfinder's size. A 1080p frame for a phone's viewfinder so scales
/// half the samples its RGB would have and converts two fifths of the pixels. Frames are turned
/// upright after the conversion, as ``ViewfinderSource/videoPixels(of:into:)`` turns them. One
/// instance serves one thread; it keeps the scaled planes' memory from frame to frame.
public final class ViewfinderPlaneScaler {
  /// The viewfinder the picture is for.
  public let viewfinder: ViewfinderSource
  /// The decoded frames' planes.
  public let input: YUV420Layout
  /// The planes scaled, before the picture is turned upright.
  private let scaled: YUV420Layout
  private let converter: YUV420Converter
  /// The scaled Y, U and V planes, packed.
  private var planes: [[UInt8]]
  /// The converted picture before it is turned upright (only for turned video).
  private var turned: [UInt8] = []

  /// A scaler of frames laid out as `input` (10 bits, the coded size of `viewfinder`'s video) to
  /// `viewfinder`, whose pixels are 16-bit (HLG or PQ video).
  ///
  /// - Throws: ``RenderError`` when `viewfinder` shows no HDR video or `input` does not match it.
  public init(viewfinder: ViewfinderSource, input: YUV420Layout) throws {
    guard let video = viewfinder.video, viewfinder.sampleBytes == 2 else {
      throw RenderError("scaling decoded planes needs the viewfinder of an HDR video")
    }
    guard input.depth == 10, input.width == video.codedWidth, input.height == video.codedHeight
    else {
      throw RenderError(
        "the decoded planes are \(input.width)×\(input.height) at \(input.depth) bits, not the "
          + "video's \(video.codedWidth)×\(video.codedHeight) at 10")
    }
    let coded =
      video.turnsQuarter
      ? (width: viewfinder.height, height: viewfinder.width)
      : (width: viewfinder.width, height: viewfinder.height)
    scaled = YUV420Layout(
      width: coded.width, height: coded.height, depth: 10, matrix: input.matrix,
      range: input.range)
    do {
      converter = try YUV420Converter(scaled, threads: Vips.configuration?.threads)
    } catch let error as RowKernelError {
      throw RenderError("cannot convert the viewfinder's planes: \(error.message)")
    }
    self.viewfinder = viewfinder
    self.input = input
    planes = [scaled.lumaBytes, scaled.chromaBytes, scaled.chromaBytes].map {
      [UInt8](repeating: 0, count: $0)
    }
  }

  /// The viewfinder's picture of the frame whose Y, U and V planes are `decoded` (laid out as
  /// ``input``), written into `pixels`, whose memory is reused when it holds the picture's bytes
  /// already and no other array shares it; its contents are replaced.
  ///
  /// - Throws: ``RenderError`` when there are not three planes or libvips cannot scale them.
  public func pixels(of decoded: [YUVPlane], into pixels: inout [UInt8]) throws {
    guard decoded.count == 3 else { throw RenderError("a 4:2:0 frame has three planes") }
    let sizes = [
      (input.width, input.height, scaled.width, scaled.height),
      (input.chromaWidth, input.chromaHeight, scaled.chromaWidth, scaled.chromaHeight),
      (input.chromaWidth, input.chromaHeight, scaled.chromaWidth, scaled.chromaHeight),
    ]
    do {
      for (index, (width, height, toWidth, toHeight)) in sizes.enumerated() {
        let plane = FrameLayout(
          width: width, height: height, bands: 1, sampleBytes: 2, rowStride: decoded[index].stride)
        var image = try Image(
          wrapping: UnsafeRawBufferPointer(
            start: decoded[index].base, count: plane.requiredBytes),
          layout: plane)
        if toWidth != width || toHeight != height {
          image = try ViewfinderSource.scaled(image, width: toWidth, height: toHeight)
        }
        try planes[index].withUnsafeMutableBytes {
          try image.render(
            into: $0,
            layout: FrameLayout(width: toWidth, height: toHeight, bands: 1, sampleBytes: 2))
        }
      }
    } catch let error as VipsError {
      throw RenderError("cannot scale a video frame for the viewfinder: \(error.message)")
    }
    let orientation = viewfinder.video?.orientation ?? 1
    let rgb = scaled.rgbLayout
    if orientation == 1 {
      convert(into: &pixels, layout: rgb)
      return
    }
    convert(into: &turned, layout: rgb)
    do {
      let upright = try turned.withUnsafeBytes {
        try Image(wrapping: $0, layout: rgb).settingOrientation(orientation).autoRotated()
          .pixelBytes()
      }
      pixels = upright
    } catch let error as VipsError {
      throw RenderError("cannot turn a video frame for the viewfinder: \(error.message)")
    }
  }

  /// The scaled planes converted to packed RGB in `buffer` (made `layout`'s size when it is not).
  private func convert(into buffer: inout [UInt8], layout: FrameLayout) {
    if buffer.count != layout.requiredBytes {
      buffer = [UInt8](repeating: 0, count: layout.requiredBytes)
    }
    let strides = [scaled.width * 2, scaled.chromaWidth * 2, scaled.chromaWidth * 2]
    planes[0].withUnsafeBytes { y in
      planes[1].withUnsafeBytes { u in
        planes[2].withUnsafeBytes { v in
          buffer.withUnsafeMutableBytes { rgb in
            guard let yBase = y.baseAddress, let uBase = u.baseAddress, let vBase = v.baseAddress,
              let target = rgb.baseAddress
            else { return }
            converter.toRGB(
              [
                YUVPlane(yBase, stride: strides[0]), YUVPlane(uBase, stride: strides[1]),
                YUVPlane(vBase, stride: strides[2]),
              ], into: target, rgbStride: layout.rowStride)
          }
        }
      }
    }
  }
}
