import CFFmpeg

/// The codec and pixel format `framedial video` writes: formats that players decode, whatever the
/// input's.
///
/// - Codec: the one asked for (``EncoderSettings/codec``); else HEVC for HEVC input and for input
///   deeper than 8 bits, H.264 for everything else.
/// - Pixel format: 4:2:0, whatever the input's chroma (4:2:2 ProRes, 4:4:4, RGB); H.264 is always
///   8-bit (`yuv420p`: 10-bit or 4:2:2 H.264 plays in few players, and FFmpeg 5.1's MOV muxer tags
///   1080p 4:2:2 10-bit H.264 as AVC-Intra, which nothing decodes); HEVC is 10-bit Main 10
///   (`yuv420p10le`) for input deeper than 8 bits, at most 10 bits (12-bit HEVC plays in few players),
///   else 8-bit Main. Exceptions: full-range `yuvj420p` input stays `yuvj420p` for H.264 and HEVC, and
///   a size that 4:2:0 cannot hold (an odd width or height) is written 4:4:4 at the same depth, so no
///   pixel is lost.
/// - HDR input (HLG, PQ): kept HDR (``HDROutput/keep``), always HEVC Main 10 (`yuv420p10le`), H.264
///   refused (``hdrProblem(for:)``); tone-mapped (``HDROutput/sdr``), 8-bit `yuv420p` in the codec
///   the rules above pick.
extension VideoTranscoder {
  /// The most bits per sample written: HEVC Main 10.
  static let deepestOutput = 10

  /// The codec written for `settings`: the asked one; else HEVC for HEVC input or input deeper than 8
  /// bits (when libx265 has 10-bit here), H.264 for the rest.
  public func codec(for settings: EncoderSettings) -> VideoCodec {
    if let codec = settings.codec { return codec }
    if keepsHDR(settings) { return .hevc }
    if decoder.context.pointee.codec_id == AV_CODEC_ID_HEVC { return .hevc }
    let deep = VideoEncoder.pixelFormats(of: .hevc).contains(AV_PIX_FMT_YUV420P10LE)
    return source.bitDepth > 8 && deep ? .hevc : .h264
  }

  /// FFmpeg's name of the pixel format written for `settings` ("yuv420p").
  public func outputPixelFormatName(for settings: EncoderSettings) -> String {
    VideoEncoder.name(of: outputPixelFormat(for: settings))
  }

  /// True when `settings` write HDR input as HDR.
  func keepsHDR(_ settings: EncoderSettings) -> Bool {
    source.dynamicRange.isHDR && settings.hdr == .keep
  }

  /// True when `settings` tone-map HDR input to SDR.
  func mapsHDRToSDR(_ settings: EncoderSettings) -> Bool {
    source.dynamicRange.isHDR && settings.hdr == .sdr
  }

  /// Why `settings` cannot write this HDR input as HDR (H.264 asked for, or no 10-bit libx265 here),
  /// or nil.
  public func hdrProblem(for settings: EncoderSettings) -> String? {
    guard keepsHDR(settings) else { return nil }
    if settings.codec == .h264 {
      return "HDR output (--hdr keep, the default for \(source.dynamicRange.rawValue.uppercased()) "
        + "input) is HEVC Main 10: 8-bit H.264 cannot hold it; drop --codec h264, or tone-map with "
        + "--hdr sdr"
    }
    guard VideoEncoder.pixelFormats(of: .hevc).contains(AV_PIX_FMT_YUV420P10LE) else {
      return "HDR output needs libx265 with 10-bit (Main 10), which this FFmpeg lacks: tone-map "
        + "with --hdr sdr"
    }
    return nil
  }

  /// Bits per sample of the pixel format written for `settings` (below ``VideoSource/bitDepth`` for
  /// deep input written as H.264, or deeper than 10 bits).
  public func outputBitDepth(for settings: EncoderSettings) -> Int {
    av_pix_fmt_desc_get(outputPixelFormat(for: settings))
      .map { Int($0.pointee.comp.0.depth) } ?? 8
  }

  /// Why the output has fewer bits per sample than the input, or nil when none are lost.
  public func depthLoss(for settings: EncoderSettings) -> String? {
    let written = outputBitDepth(for: settings)
    // Tone-mapped SDR is 8-bit by design.
    guard written < source.bitDepth, !mapsHDRToSDR(settings) else { return nil }
    let format = outputPixelFormatName(for: settings)
    switch codec(for: settings) {
    case .h264:
      return "H.264 is written 8-bit 4:2:0 (\(format)), which every player decodes: the "
        + "\(source.bitDepth)-bit input loses its depth (--codec hevc keeps 10 bits)"
    case .hevc where written == Self.deepestOutput:
      return "HEVC is written 10-bit at most (Main 10, \(format)), which players decode: the "
        + "\(source.bitDepth)-bit input loses \(source.bitDepth - written) bits"
    case .hevc:
      return "libx265 has no 10-bit format here: writing \(format)"
    }
  }

  /// The pixel format encoded for `settings` (see the rules above).
  func outputPixelFormat(for settings: EncoderSettings) -> AVPixelFormat {
    let codec = codec(for: settings)
    let accepted = VideoEncoder.pixelFormats(of: codec)
    let even = source.width % 2 == 0 && source.height % 2 == 0
    if mapsHDRToSDR(settings) { return even ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUV444P }
    // Kept HDR is 10-bit even from 8-bit input: HDR10 and HLG as players take them.
    if codec == .hevc, source.bitDepth > 8 || keepsHDR(settings) {
      let deep = even ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV444P10LE
      if accepted.contains(deep) { return deep }
    }
    if even, pixelFormat == AV_PIX_FMT_YUVJ420P, accepted.contains(pixelFormat) {
      return pixelFormat
    }
    return even ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUV444P
  }
}
