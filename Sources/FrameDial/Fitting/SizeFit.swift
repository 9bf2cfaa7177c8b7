/// Sizes an output to fit inside a box (`--size N` for N×N, `--size WxH`), keeping the aspect ratio and
/// never enlarging unless asked (`--enlarge`). It applies after the controls' zoom: the zoom window, not
/// the whole picture, is what is scaled to fit.
public struct SizeFit: Sendable, Hashable, Encodable {
  /// The box's width in pixels, at least 1.
  public var width: Int
  /// The box's height in pixels, at least 1.
  public var height: Int
  /// Scale a picture smaller than the box up until it meets the box; false keeps its size.
  public var enlarge: Bool

  /// A fit inside `width × height` pixels.
  public init(width: Int, height: Int, enlarge: Bool = false) {
    self.width = width
    self.height = height
    self.enlarge = enlarge
  }

  /// Reads `N` (an N×N box) or `WxH` (also `W×H`), each a whole number of pixels from 1 to 100 000.
  ///
  /// - Throws: ``RenderError`` naming the text and the expected form.
  public init(parsing text: String, enlarge: Bool = false) throws(RenderError) {
    let parts = text.lowercased().split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "×" })
    let numbers = parts.map { part -> Int? in
      guard !part.isEmpty, part.allSatisfy(\.isASCII), let value = Int(part),
        (1...Self.largestSide).contains(value)
      else { return nil }
      return value
    }
    switch numbers.count {
    case 1:
      if let side = numbers[0] {
        self.init(width: side, height: side, enlarge: enlarge)
        return
      }
    case 2:
      if let width = numbers[0], let height = numbers[1] {
        self.init(width: width, height: height, enlarge: enlarge)
        return
      }
    default:
      break
    }
    throw RenderError(
      "size '\(text)' is not N or WxH with whole numbers of pixels from 1 to \(Self.largestSide) "
        + "(for example 2048 or 1920x1080)")
  }

  /// The largest side a box may have.
  public static let largestSide = 100_000

  /// The output size for a picture of `inputWidth × inputHeight`: scaled by the same factor on both
  /// sides until one side meets the box and the other is no larger (rounded, at least 1); the picture's
  /// own size when it already fits and ``enlarge`` is false.
  public func outputSize(inputWidth: Int, inputHeight: Int) -> (width: Int, height: Int) {
    let fits = inputWidth <= width && inputHeight <= height
    if fits && !enlarge { return (inputWidth, inputHeight) }
    // The side whose box is tighter relative to the picture decides.
    if width * inputHeight <= height * inputWidth {
      let scaled = (Double(inputHeight) * Double(width) / Double(inputWidth)).rounded()
      return (width, max(1, min(height, Int(scaled))))
    }
    let scaled = (Double(inputWidth) * Double(height) / Double(inputHeight)).rounded()
    return (max(1, min(width, Int(scaled))), height)
  }

  /// The shrink-on-load factor (1, 2, 4 or 8; see `LoadOptions.shrink`) for a picture whose upright
  /// size is `imageWidth × imageHeight`, zoomed by `zoom`: the largest that still leaves the zoom window
  /// at least twice the output on both sides. As libvips's `thumbnail` does, the decoder's cheap block
  /// shrink stops short of the target and a factor of two or more is left to the final Lanczos resize,
  /// so a shrunk load gives the same picture as a full one.
  public func loadShrink(imageWidth: Int, imageHeight: Int, zoom: Double = 1) -> Int {
    let output = outputSize(inputWidth: imageWidth, inputHeight: imageHeight)
    let window = ZoomWindow(imageWidth: imageWidth, imageHeight: imageHeight, zoom: zoom)
    let shrink = min(window.width / Double(output.width), window.height / Double(output.height))
    return [8, 4, 2].first { shrink >= Double(2 * $0) } ?? 1
  }

  /// The scale, in eighths (1 … 8), a JPEG whose upright size is `imageWidth × imageHeight`, zoomed by
  /// `zoom`, can be decoded at by libjpeg-turbo's DCT scaling (`LoadOptions.jpegEighths`): the smallest
  /// that leaves the zoom window at least ``jpegScaleMargin`` times the output on both sides, so the
  /// final Lanczos resize still does the last part of the shrinking; 8 (a full decode) when that is 6 or
  /// 7, or none is small enough.
  public func jpegEighths(imageWidth: Int, imageHeight: Int, zoom: Double = 1) -> Int {
    let output = outputSize(inputWidth: imageWidth, inputHeight: imageHeight)
    let window = ZoomWindow(imageWidth: imageWidth, imageHeight: imageHeight, zoom: zoom)
    return (1...Self.largestFasterJPEGEighths).first { eighths in
      let scale = Double(eighths) / 8
      return window.width * scale >= Self.jpegScaleMargin * Double(output.width)
        && window.height * scale >= Self.jpegScaleMargin * Double(output.height)
    } ?? 8
  }

  /// How much larger than the output a DCT-scaled JPEG decode stays (see
  /// ``jpegEighths(imageWidth:imageHeight:zoom:)``): measured against a full decode and the same resize,
  /// a 12-megapixel photo sized to 2048 this way has a PSNR of at least 40 dB.
  public static let jpegScaleMargin = 1.2

  /// The largest M/8 that libjpeg-turbo 2.1 decodes faster than the full size: its 6×6 and 7×7 inverse
  /// DCTs have no SIMD code (a 4000 × 3000 quality-90 photo: 8/8 101 ms, 7/8 144, 6/8 112, 5/8 92, 4/8
  /// 68), so those scales would cost more than a full decode and the resize.
  static let largestFasterJPEGEighths = 5
}
