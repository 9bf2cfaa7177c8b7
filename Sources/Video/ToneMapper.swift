import CFFmpeg

/// Tone-maps HDR frames (HLG or PQ) to SDR BT.709 with libavfilter's `zscale` and `tonemap`, in process,
/// with a gamut step of FrameDial's own between them:
///
/// 1. `zscale` linearises (HLG through its inverse OETF and the BT.2100 OOTF for a 1000 cd/m² display;
///    PQ through its EOTF) with `npl=203`, so reference white (HLG 75 %, PQ 203 cd/m²) is 1.0 — the
///    usual `npl=100` makes it 2.0, a stop too bright — and converts BT.2020 primaries to BT.709.
/// 2. `tonemap=mobius` (linear up to 0.3, then a Möbius roll-off reaching 1.0 at the peak: 1000/203
///    for HLG, the mastering display's or content light level's peak over 203 for PQ) maps the largest
///    channel and scales the other two by the same ratio, so a colour keeps its hue; reference white
///    lands at 0.71 linear, code 218 of 255 in full range.
/// 3. Colours outside BT.709 have a negative channel after step 1, which the last step would clip per
///    channel (a hue shift: saturated BT.2020 green turns yellow-green). They are brought inside by
///    moving them towards the grey of the same luminance until the negative channel is 0, which keeps
///    the luminance and the hue line.
/// 4. `zscale` encodes with the BT.709 transfer into the output format (TV-range BT.709 Y′CbCr, or
///    full-range RGB for stills and the studio).
final class ToneMapper {
  /// SDR diffuse white in cd/m² that HDR reference white is linearised to (BT.2408).
  static let referenceWhite = 203.0
  /// The peak of HLG (a 1000 cd/m² display, BT.2100's reference).
  static let hlgPeak = 1000.0

  private let linearise: FilterChain
  private let encode: FilterChain
  private let width: Int
  private let height: Int

  /// A tone mapper of `width × height` frames of `format` tagged `colour` (HLG or PQ) with `metadata`
  /// (for PQ's peak), giving frames of `output` (yuv420p, yuv444p or rgb24).
  ///
  /// - Throws: ``VideoError`` when libavfilter cannot build the chains.
  init(
    width: Int, height: Int, format: AVPixelFormat, colour: ColourTags, metadata: HDRMetadata,
    output: AVPixelFormat
  ) throws(VideoError) {
    (self.width, self.height) = (width, height)
    let transfer = colour.dynamicRange == .pq ? "smpte2084" : "arib-std-b67"
    let primaries = colour.primaries == AVCOL_PRI_BT709 ? "bt709" : "bt2020"
    let matrix = colour.matrix == AVCOL_SPC_BT709 ? "bt709" : "bt2020nc"
    let range = colour.range == AVCOL_RANGE_JPEG ? "pc" : "tv"
    let peak = Self.peak(of: colour.dynamicRange, metadata: metadata) / Self.referenceWhite
    linearise = try FilterChain(
      width: width, height: height, format: format,
      description: "zscale=tin=\(transfer):pin=\(primaries):min=\(matrix):rin=\(range)"
        + ":t=linear:p=\(primaries):m=\(matrix):r=pc:npl=\(Int(Self.referenceWhite)),"
        + "format=gbrpf32le,zscale=p=bt709,"
        + "tonemap=mobius:desat=0:peak=\(String(format: "%.4f", peak))")
    let encoding =
      output == AV_PIX_FMT_RGB24
      ? "zscale=tin=linear:pin=bt709:rin=pc:t=bt709:p=bt709:r=pc,format=gbrp,format=rgb24"
      : "zscale=tin=linear:pin=bt709:rin=pc:t=bt709:p=bt709:m=bt709:r=tv,"
        + "format=\(VideoEncoder.name(of: output))"
    encode = try FilterChain(
      width: width, height: height, format: AV_PIX_FMT_GBRPF32LE, description: encoding)
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
    let linear = try linearise.filter(frame)
    try VideoError.check(av_frame_make_writable(linear), "out of memory for video frames")
    Self.bringIntoGamut(linear, width: width, height: height)
    return try encode.filter(linear)
  }

  /// Moves every pixel of the planar float RGB `frame` (gbrpf32le: planes G, B, R) with a negative
  /// channel towards the grey of its BT.709 luminance until that channel is 0; a pixel of no
  /// luminance becomes black.
  static func bringIntoGamut(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) {
    let data = frame.pointee.data
    let lines = frame.pointee.linesize
    guard let green = data.0, let blue = data.1, let red = data.2 else { return }
    for row in 0..<height {
      let g = UnsafeMutableRawPointer(green + row * Int(lines.0)).assumingMemoryBound(
        to: Float.self)
      let b = UnsafeMutableRawPointer(blue + row * Int(lines.1)).assumingMemoryBound(to: Float.self)
      let r = UnsafeMutableRawPointer(red + row * Int(lines.2)).assumingMemoryBound(to: Float.self)
      for x in 0..<width {
        let least = min(r[x], g[x], b[x])
        guard least < 0 else { continue }
        let luminance = 0.2126 * r[x] + 0.7152 * g[x] + 0.0722 * b[x]
        guard luminance > 0 else {
          (r[x], g[x], b[x]) = (0, 0, 0)
          continue
        }
        let keep = luminance / (luminance - least)
        r[x] = luminance + keep * (r[x] - luminance)
        g[x] = luminance + keep * (g[x] - luminance)
        b[x] = luminance + keep * (b[x] - luminance)
      }
    }
  }
}
