import CFFmpeg

/// The colour description libx265 writes into kept HDR video's stream (the VUI and, for PQ, the HDR10
/// SEI messages), beside the container's tags: players that read only the stream (Apple's, TVs) then
/// see HDR too.
enum HDREncoding {
  /// `x265-params` entries for video tagged `colour` with `metadata`: `colorprim`, `transfer`,
  /// `colormatrix` and `range` (FFmpeg's names, which x265 shares); for PQ also `hdr10=1` and the
  /// mastering display (`master-display`) and content light level (`max-cll`) when the input has them.
  static func x265Parameters(colour: ColourTags, metadata: HDRMetadata) -> [String] {
    func name(_ text: UnsafePointer<CChar>?) -> String? { text.map { String(cString: $0) } }
    var parameters: [String] = []
    if let primaries = name(av_color_primaries_name(colour.primaries)) {
      parameters.append("colorprim=\(primaries)")
    }
    if let transfer = name(av_color_transfer_name(colour.transfer)) {
      parameters.append("transfer=\(transfer)")
    }
    if let matrix = name(av_color_space_name(colour.matrix)) {
      parameters.append("colormatrix=\(matrix)")
    }
    parameters.append("range=\(colour.range == AVCOL_RANGE_JPEG ? "full" : "limited")")
    guard colour.dynamicRange == .pq else { return parameters }
    parameters.append("hdr10=1")
    if let display = metadata.x265MasterDisplay { parameters.append("master-display=\(display)") }
    if let level = metadata.contentLightLevel {
      parameters.append("max-cll=\(level.maxContentLight),\(level.maxFrameAverageLight)")
    }
    return parameters
  }
}
