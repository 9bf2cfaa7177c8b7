import CFFmpeg

/// A video stream's colour description as its tags say: matrix, range, primaries and transfer, each
/// FFmpeg's value (`AVColorSpace`, `AVColorRange`, `AVColorPrimaries`, `AVColorTransferCharacteristic`).
///
/// How FrameDial's colour math treats SDR video:
/// - **Matrix and range**: Y′CbCr becomes R′G′B′ with the stream's own matrix and range (untagged:
///   BT.601 below 720 lines, BT.709 at or above), and goes back the same way.
/// - **Transfer**: the R′G′B′ values are treated as sRGB-encoded, whatever the tag (BT.709, BT.1886,
///   SMPTE 170M, BT.601): exposure, white balance and saturation work on them decoded with the sRGB
///   curve, exactly as on a still, so a frame renders as a still of that frame does (`--frame-at`,
///   `frames`, previews). The alternative, linearising with BT.1886 (a pure 2.4 power), would make EV +1
///   the doubling of displayed light a TV shows; measured on an 8-bit ramp the two differ by at most 5
///   code values (mean 3.4; at 10 bits at most 19 codes of 1023, mean 13.7), largest in deep shadows,
///   where the sRGB curve's linear toe lifts code 7 to 14 and the 2.4 power to 9.
/// - **Primaries**: no gamut conversion. The math runs on the stream's own RGB: BT.709 primaries are
///   sRGB's; BT.601 (SMPTE 170M, BT.470BG) primaries differ slightly, and white balance and saturation
///   then work in those primaries, so the picture's colours are never moved by a conversion.
/// - **HDR** (PQ / SMPTE ST 2084, HLG / ARIB STD-B67, ``dynamicRange``): the controls work on the
///   R′G′B′ codes in the frame renderer's HDR encoding (BT.2100 HLG or PQ), converted from Y′CbCr with
///   the BT.2020 matrix; the output keeps the HDR tags or is tone-mapped to BT.709
///   (``RGBToneMapper``).
struct ColourTags: Equatable {
  var matrix: AVColorSpace
  var range: AVColorRange
  var primaries: AVColorPrimaries
  var transfer: AVColorTransferCharacteristic

  /// Tags of these values.
  init(
    matrix: AVColorSpace, range: AVColorRange, primaries: AVColorPrimaries,
    transfer: AVColorTransferCharacteristic
  ) {
    (self.matrix, self.range, self.primaries, self.transfer) = (matrix, range, primaries, transfer)
  }

  /// The tags of a stream's codec parameters.
  init(_ parameters: UnsafePointer<AVCodecParameters>) {
    matrix = parameters.pointee.color_space
    range = parameters.pointee.color_range
    primaries = parameters.pointee.color_primaries
    transfer = parameters.pointee.color_trc
  }

  /// The dynamic range the transfer says: HLG (ARIB STD-B67), PQ (SMPTE ST 2084), else SDR.
  var dynamicRange: DynamicRange {
    switch transfer {
    case AVCOL_TRC_ARIB_STD_B67: .hlg
    case AVCOL_TRC_SMPTE2084: .pq
    default: .sdr
    }
  }

  /// The tags of SDR video tone-mapped from HDR: BT.709 matrix, primaries and transfer, TV range.
  static let bt709 = ColourTags(
    matrix: AVCOL_SPC_BT709, range: AVCOL_RANGE_MPEG, primaries: AVCOL_PRI_BT709,
    transfer: AVCOL_TRC_BT709)

  /// The matrix to convert with: the tagged one, or for untagged video BT.601 below 720 lines and BT.709
  /// at or above, as players guess.
  func effectiveMatrix(height: Int) -> AVColorSpace {
    switch matrix {
    case AVCOL_SPC_UNSPECIFIED, AVCOL_SPC_RESERVED:
      height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
    default: matrix
    }
  }

  /// The Y′CbCr matrices libswscale converts with (`sws_getCoefficients`); for any other (GBR, YCgCo,
  /// ICtCp …) it uses one of these instead.
  static let yuvMatrices: [AVColorSpace] = [
    AVCOL_SPC_BT709, AVCOL_SPC_FCC, AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_SMPTE240M,
    AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL,
  ]

  /// The tags of Y′CbCr output converted from RGB input (`pixelFormat` an RGB format: FFV1, QuickTime
  /// RLE, PNG …), which are the ones its conversion uses: the tagged matrix when it is a Y′CbCr matrix
  /// libswscale has, else BT.709 (never GBR, which would say the Y′CbCr samples are RGB and make
  /// players show wrong colours), and TV range; primaries and transfer as tagged. Nil for Y′CbCr or
  /// grey input, whose tags are kept.
  func yuvTags(fromRGB pixelFormat: AVPixelFormat) -> ColourTags? {
    guard let descriptor = av_pix_fmt_desc_get(pixelFormat),
      descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    else { return nil }
    var tags = self
    if !Self.yuvMatrices.contains(matrix) { tags.matrix = AVCOL_SPC_BT709 }
    tags.range = AVCOL_RANGE_MPEG
    return tags
  }

  /// True when the samples use the full 0 … 255 range: tagged so, or a `yuvj` pixel format.
  func isFullRange(pixelFormat: AVPixelFormat) -> Bool {
    range == AVCOL_RANGE_JPEG
      || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P]
        .contains(pixelFormat)
  }

  /// "bt709/tv/bt709/bt709"-style text (matrix/range/primaries/transfer, FFmpeg's names).
  var summary: String {
    func name(_ text: UnsafePointer<CChar>?) -> String {
      text.map { String(cString: $0) } ?? "unknown"
    }
    return [
      name(av_color_space_name(matrix)), name(av_color_range_name(range)),
      name(av_color_primaries_name(primaries)), name(av_color_transfer_name(transfer)),
    ].joined(separator: "/")
  }
}
