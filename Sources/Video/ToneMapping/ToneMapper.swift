import CFFmpeg

/// Tone-maps HDR frames (HLG or PQ) to SDR BT.709, in process: libavfilter's `zscale` and `tonemap`
/// with a step of FrameDial's own between them (``DisplayLight``).
///
/// 1. `zscale` converts Y′CbCr to float R′G′B′ (HLG, decoded by ``DisplayLight``) or to linear light
///    (PQ, its EOTF with `npl=203`), so that reference white — HLG's 75 % signal on a 1000 cd/m²
///    display, PQ's 203 cd/m² — is 1.0. The usual `npl=100` makes it 2.03, a stop too bright: a flat
///    75 % HLG patch comes out at 236 of 255 through mobius (225 through reinhard, 194 through hable),
///    against 216–218 with 203, which leaves mobius's top fifth of the range for highlights.
/// 2. ``DisplayLight`` makes it BT.709 display light with every colour inside BT.709, hues kept.
/// 3. `tonemap=mobius` (linear up to 0.3, then a Möbius curve reaching 1.0 at the peak: 1000/203 for
///    HLG, the mastering display's or content light level's peak over 203 for PQ) maps the largest
///    channel and scales the other two by the same ratio, so a colour keeps its hue, and highlights
///    roll off instead of clipping; reference white lands at 0.68 of the display's light, 217 of 255
///    in full range, TV-range luma 202 (hable would put it at 173 of 255, reinhard at 207).
/// 4. `zscale` encodes for an SDR display (its `bt709` transfer from display light is BT.1886's
///    2.4 power) into the output format: TV-range BT.709 Y′CbCr, or full-range RGB for stills and
///    the studio.
final class ToneMapper {
  /// SDR diffuse white in cd/m² that HDR reference white is linearised to (BT.2408).
  static let referenceWhite = 203.0
  /// The peak of HLG (a 1000 cd/m² display, BT.2100's reference).
  static let hlgPeak = 1000.0
  /// Where `tonemap=mobius` leaves the linear part (its default `param`, written out).
  static let mobiusKnee = 0.3

  private let decode: FilterChain
  private let light: DisplayLight
  private let encode: FilterChain
  private let width: Int
  private let height: Int

  /// A tone mapper of `width × height` frames of `format` tagged `colour` (HLG or PQ) with `metadata`
  /// (for PQ's peak), giving frames of `output`: yuv420p or yuv444p for video, or rgb24 (the chain
  /// ``RGBToneMapper``'s one pass is tested against).
  ///
  /// - Throws: ``VideoError`` when libavfilter cannot build the chains.
  init(
    width: Int, height: Int, format: AVPixelFormat, colour: ColourTags, metadata: HDRMetadata,
    output: AVPixelFormat
  ) throws(VideoError) {
    (self.width, self.height) = (width, height)
    let range = colour.dynamicRange
    let bt2020 = colour.primaries != AVCOL_PRI_BT709
    let primaries = bt2020 ? "bt2020" : "bt709"
    let matrix = colour.matrix == AVCOL_SPC_BT709 ? "bt709" : "bt2020nc"
    let input =
      "zscale=tin=\(range == .pq ? "smpte2084" : "arib-std-b67"):pin=\(primaries):min=\(matrix)"
      + ":rin=\(colour.range == AVCOL_RANGE_JPEG ? "pc" : "tv"):p=\(primaries):r=pc"
    decode = try FilterChain(
      width: width, height: height, format: format,
      description: input
        + (range == .pq ? ":t=linear:npl=\(Int(Self.referenceWhite))" : ":t=arib-std-b67")
        + ",format=gbrpf32le")
    light = DisplayLight(range: range, bt2020: bt2020)
    let peak = Self.peak(of: range, metadata: metadata) / Self.referenceWhite
    let encoding =
      output == AV_PIX_FMT_RGB24
      ? "zscale=tin=linear:pin=bt709:rin=pc:t=bt709:p=bt709:r=pc,format=gbrp,format=rgb24"
      : "zscale=tin=linear:pin=bt709:rin=pc:t=bt709:p=bt709:m=bt709:r=tv,"
        + "format=\(VideoEncoder.name(of: output))"
    encode = try FilterChain(
      width: width, height: height, format: AV_PIX_FMT_GBRPF32LE,
      description:
        "tonemap=mobius:param=\(Self.mobiusKnee):desat=0:peak=\(String(format: "%.4f", peak)),"
        + encoding)
  }

  /// The peak light of `range` in cd/m²: HLG's 1000; PQ's mastering display peak, else its content
  /// light level, else 1000.
  static func peak(of range: DynamicRange, metadata: HDRMetadata) -> Double {
    guard range == .pq else { return hlgPeak }
    if let display = metadata.masteringDisplay, display.maxLuminance > referenceWhite {
      return display.maxLuminance
    }
    if let level = metadata.contentLightLevel, Double(level.maxContentLight) > referenceWhite {
      return Double(level.maxContentLight)
    }
    return hlgPeak
  }

  /// `frame` tone-mapped, with its timestamp; valid until the next call.
  ///
  /// - Throws: ``VideoError`` when a filter fails.
  func map(_ frame: UnsafePointer<AVFrame>) throws(VideoError) -> UnsafeMutablePointer<AVFrame> {
    let decoded = try decode.filter(frame)
    try VideoError.check(av_frame_make_writable(decoded), "out of memory for video frames")
    light.apply(to: decoded, width: width, height: height)
    decoded.pointee.color_trc = AVCOL_TRC_LINEAR
    decoded.pointee.color_primaries = AVCOL_PRI_BT709
    decoded.pointee.colorspace = AVCOL_SPC_RGB
    decoded.pointee.color_range = AVCOL_RANGE_JPEG
    return try encode.filter(decoded)
  }
}
