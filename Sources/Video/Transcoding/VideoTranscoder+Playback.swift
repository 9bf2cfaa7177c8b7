import CFFmpeg

extension VideoTranscoder {
  /// What playback does with a decoded frame, asked before it is converted to RGB.
  public enum PlaybackChoice: Sendable, Equatable {
    /// Convert the frame and hand it on.
    case show
    /// Pass over it: it is decoded (later frames may depend on it) but not converted.
    case skip
    /// Stop playing.
    case stop
  }

  /// Decodes the video once from its first frame to its last, in presentation order, as a player does.
  /// For each frame, `choose` gets its presentation time (seconds from the video stream's first
  /// timestamp) and says whether it is converted to packed RGB and handed to `show` (whose `output`
  /// is the caller's to use), passed over, or whether playing stops. SDR video comes as 8-bit RGB
  /// (rgb24, whatever the video's depth; the stream's own matrix and range); HDR video (HLG, PQ) as
  /// 16-bit R′G′B′ holding its codes (rgb48le), to be rendered in its own encoding and then
  /// tone-mapped for an SDR display (``rgbToneMapper(width:height:)``), as `--frame-at` stills are.
  /// Each call after the first seeks back to the start, so calling it again loops the video. The
  /// pixels are as coded: rotation and sample aspect are the caller's (``VideoSource/rotation``,
  /// ``VideoSource/sampleAspect``).
  ///
  /// - Returns: true at the end of the video, false when `choose` stopped it.
  /// - Throws: ``VideoError`` naming the file when it cannot be read, sought or decoded, or meets
  ///   damage ``failOn`` refuses (which the frames shown before it have not shown); what `show`
  ///   throws.
  public func play(choose: (Double) -> PlaybackChoice, show: (Frame) throws -> Void) throws -> Bool
  {
    let stream = input.videoStream
    if hasPlayed {
      try input.rewind()
      decoder.flush()
    }
    hasPlayed = true
    damage = nil
    watch.reset()
    watch.begin()
    defer { watch.end() }
    // FrameDial's planar conversion takes 8-bit video to rgb24 and 10-bit to rgb48le (HDR); other
    // depths, and 10-bit SDR video shown as rgb24, go through libswscale.
    let pipeline = try FramePipeline(
      source: source, inputFormat: pixelFormat, outputFormat: pixelFormat,
      rgbSampleBytes: source.dynamicRange.isHDR ? 2 : 1,
      matrix: matrix, fullRange: fullRange, startTime: stream.pointee.start_time,
      timeBase: stream.pointee.time_base, name: input.path,
      planar: planarConversion)
    pipeline.convertsAhead = false
    let slot = try FrameSlot(bytes: pipeline.rgbBytes)
    guard let packet = av_packet_alloc() else { throw VideoError("out of memory for a packet") }
    var owned: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&owned) }
    /// Takes every frame the decoder has ready; false when `choose` stopped.
    func drainDecoder() throws -> Bool {
      while let frame = try pipeline.next(from: decoder) {
        try pipeline.load(frame, timestamp: pipeline.timestamp(of: frame), into: slot)
        switch choose(slot.time) {
        case .stop: return false
        case .skip: continue
        case .show:
          if playsPlanes, source.dynamicRange.isHDR, let planes = try pipeline.decodedPlanes(slot) {
            try show(Frame(slot, planes: planes))
          } else {
            try pipeline.loadRGB(slot)
            try show(Frame(slot))
          }
        }
      }
      return true
    }
    while try watch.read(input, into: packet) {
      guard Int(packet.pointee.stream_index) == input.videoIndex else { continue }
      try decoder.send(packet)
      guard try drainDecoder() else {
        damage = watch.report()
        return false
      }
    }
    try decoder.send(nil)
    let ended = try drainDecoder()
    damage = watch.report()
    return ended
  }
}
