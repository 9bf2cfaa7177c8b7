import Foundation
import Vips

/// A picture for a live viewfinder (`framedial studio`): upright RGB pixels, packed, no larger than
/// the device's viewfinder, a width limit, or the picture itself; and the screen layout. Its pixels
/// are 8-bit sRGB, or for HDR video (``encoding`` HLG or PQ) 16-bit R′G′B′ in that encoding, which
/// the controls work in before the picture is tone-mapped for the page. A still is read once; a
/// video's frames are scaled to the same size as they play (ViewfinderSource+Video.swift).
public struct ViewfinderSource: Sendable {
  /// The packed RGB pixels, `width × height × 3 ×` ``sampleBytes`` bytes (16-bit samples
  /// little-endian).
  public var pixels: [UInt8]
  /// The width in pixels.
  public var width: Int
  /// The height in pixels.
  public var height: Int
  /// Where the viewfinder and the overlay go on the device's screen.
  public var layout: PreviewLayout
  /// The shape of the video frames shown, nil for a still.
  public var video: VideoFrameShape?
  /// What the pixels' codes are in: sRGB, or BT.2100 HLG or PQ for HDR video.
  public var encoding: ColourEncoding = .sRGB

  /// Bytes per sample: 1 for sRGB pixels, 2 for HDR (HLG, PQ), whose codes need more than 8 bits.
  public var sampleBytes: Int { encoding.transfer == .sRGB ? 1 : 2 }

  /// The pixels' layout: `width × height`, 3 bands of ``sampleBytes``, packed.
  var frameLayout: FrameLayout {
    FrameLayout(width: width, height: height, bands: 3, sampleBytes: sampleBytes)
  }

  /// Reads `input` (shrunk on load where the format allows), turns it upright, converts it to 8-bit
  /// sRGB with three bands (alpha flattened onto black, grey expanded) and scales it down to fit the
  /// viewfinder of `device` held in `orientation`, and at most `maxWidth` pixels wide.
  ///
  /// - Throws: ``RenderError`` naming `input` when it cannot be read or is damaged.
  public init(
    input: String, device: ScreenDevice, orientation: ScreenOrientation = .portrait,
    maxWidth: Int = 1920, load: LoadOptions = LoadOptions()
  ) throws {
    var size = (width: 1, height: 1)
    var layout: PreviewLayout?
    let mark = Vips.errorMark()
    let picture = try DecodeVerdict.naming(input, load: load) { () throws -> Image in
      let loaded = try StillInput.load(input, options: load, keepSixteenBits: false) { w, h in
        let made = PreviewLayout.make(
          device: device, orientation: orientation, imageWidth: w, imageHeight: h)
        layout = made
        size = Self.fittedSize(
          width: w, height: h, into: made.viewfinder.width, maxWidth: max(1, maxWidth))
        return max(1, min(w / size.width, h / size.height))
      }
      let shown = try PreviewRenderer.displayable(loaded.image)
      guard shown.width != size.width || shown.height != size.height else { return shown }
      return try shown.thumbnailed(width: size.width, height: size.height)
    }
    pixels = try DecodeVerdict.naming(input, load: load) { try picture.pixelBytes() }
    try DecodeVerdict.confirm(input, decoded: picture, since: mark, load: load)
    width = picture.width
    height = picture.height
    self.layout =
      layout
      ?? PreviewLayout.make(
        device: device, orientation: orientation, imageWidth: width, imageHeight: height)
  }

  /// `width × height` scaled down (never up) to `viewfinderWidth` and `maxWidth`, aspect kept.
  static func fittedSize(width: Int, height: Int, into viewfinderWidth: Int, maxWidth: Int)
    -> (width: Int, height: Int)
  {
    let limit = min(viewfinderWidth, maxWidth)
    guard width > limit else { return (width, height) }
    let scale = Double(limit) / Double(width)
    return (limit, max(1, Int((Double(height) * scale).rounded())))
  }
}
