import CFFmpeg
import CToneMap
import Dispatch
import Foundation

@testable import Video

/// The reference ``RGBToneMapper`` is held to: the same maths as a libavfilter chain, `zscale` and
/// `tonemap` with the ``DisplayLight`` step between them, the tone mapping `video --hdr sdr` ran
/// before FrameDial's one pass took its place (the product no longer links libavfilter).
///
/// 1. `zscale` converts Y′CbCr or RGB to float R′G′B′ (HLG, decoded by ``DisplayLight``) or to
///    linear light (PQ, its EOTF with `npl=203`).
/// 2. ``DisplayLight`` makes it BT.709 display light with every colour inside BT.709.
/// 3. `tonemap=mobius` with the peak over reference white.
/// 4. `zscale` encodes for an SDR display (its `bt709` transfer from display light is BT.1886's 2.4
///    power) into the output format.
final class LibavfilterToneMapper {
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
        + (range == .pq ? ":t=linear:npl=\(Int(RGBToneMapper.referenceWhite))" : ":t=arib-std-b67")
        + ",format=gbrpf32le")
    light = DisplayLight(range: range, bt2020: bt2020)
    let peak = RGBToneMapper.peak(of: range, metadata: metadata) / RGBToneMapper.referenceWhite
    let encoding =
      output == AV_PIX_FMT_RGB24
      ? "zscale=tin=linear:pin=bt709:rin=pc:t=bt709:p=bt709:r=pc,format=gbrp,format=rgb24"
      : "zscale=tin=linear:pin=bt709:rin=pc:t=bt709:p=bt709:m=bt709:r=tv,"
        + "format=\(VideoEncoder.name(of: output))"
    encode = try FilterChain(
      width: width, height: height, format: AV_PIX_FMT_GBRPF32LE,
      description:
        "tonemap=mobius:param=\(RGBToneMapper.mobiusKnee):desat=0:peak=\(String(format: "%.4f", peak)),"
        + encoding)
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

extension DisplayLight {
  /// Applies the step to the `width × height` gbrpf32le `frame`, rows in bands on several threads.
  func apply(to frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) {
    let data = frame.pointee.data
    let lines = frame.pointee.linesize
    guard let green = data.0, let blue = data.1, let red = data.2 else { return }
    // Addresses cross to the worker threads as integers; each band writes rows of its own.
    let planes = [red, green, blue].map { Int(bitPattern: $0) }
    let strides = [lines.2, lines.0, lines.1].map { Int($0) }
    let bands = min(height, 8)
    DispatchQueue.concurrentPerform(iterations: bands) { band in
      withUnsafePointer(to: parameters) { step in
        for row in (band * height / bands)..<((band + 1) * height / bands) {
          guard
            let r = UnsafeMutablePointer<Float>(bitPattern: planes[0] + row * strides[0]),
            let g = UnsafeMutablePointer<Float>(bitPattern: planes[1] + row * strides[1]),
            let b = UnsafeMutablePointer<Float>(bitPattern: planes[2] + row * strides[2])
          else { return }
          fd_display_light_row(r, g, b, width, step)
        }
      }
    }
  }
}
