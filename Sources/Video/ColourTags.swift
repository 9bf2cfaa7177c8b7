import CFFmpeg

/// A video stream's colour description as its tags say: matrix, range, primaries and transfer, each
/// FFmpeg's value (`AVColorSpace`, `AVColorRange`, `AVColorPrimaries`, `AVColorTransferCharacteristic`).
struct ColourTags: Equatable {
  var matrix: AVColorSpace
  var range: AVColorRange
  var primaries: AVColorPrimaries
  var transfer: AVColorTransferCharacteristic

  /// The tags of a stream's codec parameters.
  init(_ parameters: UnsafePointer<AVCodecParameters>) {
    matrix = parameters.pointee.color_space
    range = parameters.pointee.color_range
    primaries = parameters.pointee.color_primaries
    transfer = parameters.pointee.color_trc
  }

  /// True for the transfers of high dynamic range video: PQ (SMPTE ST 2084) and HLG (ARIB STD-B67).
  var isHighDynamicRange: Bool {
    transfer == AVCOL_TRC_SMPTE2084 || transfer == AVCOL_TRC_ARIB_STD_B67
  }

  /// The matrix to convert with: the tagged one, or for untagged video BT.601 below 720 lines and BT.709
  /// at or above, as players guess.
  func effectiveMatrix(height: Int) -> AVColorSpace {
    switch matrix {
    case AVCOL_SPC_UNSPECIFIED, AVCOL_SPC_RESERVED:
      height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
    default: matrix
    }
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
