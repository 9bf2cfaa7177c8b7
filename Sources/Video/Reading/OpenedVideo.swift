import CFFmpeg

/// A video file opened with its decoder, and what its video stream says: the facts ``VideoTranscoder``
/// works from and `framedial info` prints. Nothing is refused here but a stream FFmpeg cannot describe
/// (unknown pixel format, no size); ``refusal`` says why a stream would not be processed.
struct OpenedVideo {
  let input: InputFile
  let decoder: VideoDecoder
  let pixelFormat: AVPixelFormat
  let colour: ColourTags
  /// The matrix the pixels are converted with, and whether their range is full.
  let matrix: AVColorSpace
  let fullRange: Bool
  let source: VideoSource
  /// Why the stream is not processed (more than 16 bits per sample), or nil.
  let refusal: String?

  /// Opens `path` and reads its video stream's facts; with a `pixelLimit`, a video whose frames are
  /// larger is refused before any frame of ours is allocated (before FFmpeg's look at the file when
  /// the container gives the size). With a `watch`, the decoder reports to it (and the watch adopts
  /// the file).
  ///
  /// - Throws: ``VideoError`` naming the file: not readable, no video stream, frames over the pixel
  ///   limit, no decoder, an unknown pixel format, no size.
  init(path: String, pixelLimit: Int? = nil, watch: DamageWatch? = nil) throws(VideoError) {
    input = try InputFile(path: path, pixelLimit: pixelLimit)
    watch?.adopt(input)
    let stream = input.videoStream
    let found = stream.pointee.codecpar.pointee
    if let problem = PixelLimit.problem(
      width: Double(found.width), height: Double(found.height), limit: pixelLimit,
      what: "its video is \(found.width)×\(found.height)")
    {
      throw VideoError("\(path): \(problem)")
    }
    decoder = try VideoDecoder(stream: stream, path: path, pixelLimit: pixelLimit, watch: watch)
    let context = decoder.context.pointee
    pixelFormat = context.pix_fmt
    guard pixelFormat != AV_PIX_FMT_NONE, let descriptor = av_pix_fmt_desc_get(pixelFormat) else {
      throw VideoError("\(path): its video's pixel format is unknown")
    }
    let depth = Int(descriptor.pointee.comp.0.depth)
    let formatName = VideoEncoder.name(of: pixelFormat)
    colour = ColourTags(stream.pointee.codecpar)
    refusal =
      depth > 16
      ? "\(depth)-bit video (\(formatName)) is not processed: 16 bits per sample at most" : nil
    let (width, height) = (Int(context.width), Int(context.height))
    guard width > 0, height > 0 else { throw VideoError("\(path): its video has no size") }
    matrix = colour.effectiveMatrix(height: height)
    fullRange = colour.isFullRange(pixelFormat: pixelFormat)
    let rate = Self.frameRate(of: stream)
    let fps = rate.den > 0 ? av_q2d(rate) : 0
    var expected: Int? = stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil
    if expected == nil, input.context.pointee.duration > 0, fps > 0 {
      // A lying container (a huge duration or frame rate) may announce more frames than an Int holds.
      let frames = (Double(input.context.pointee.duration) / Double(AV_TIME_BASE) * fps).rounded()
      expected = frames < Double(Int.max) ? Int(frames) : nil
    }
    let aspect = av_guess_sample_aspect_ratio(input.context, stream, nil)
    let duration = input.context.pointee.duration
    var metadata = HDRMetadata(stream: stream)
    if colour.dynamicRange.isHDR,
      metadata.masteringDisplay == nil || metadata.contentLightLevel == nil
    {
      Self.readFirstFrameMetadata(of: path, pixelLimit: pixelLimit, into: &metadata)
    }
    func name(_ text: UnsafePointer<CChar>?) -> String {
      text.map { String(cString: $0) } ?? "unknown"
    }
    source = VideoSource(
      width: width, height: height,
      codecName: avcodec_get_name(context.codec_id).map { String(cString: $0) } ?? "unknown",
      pixelFormatName: formatName, bitDepth: depth, frameRate: fps, expectedFrames: expected,
      duration: duration > 0 ? Double(duration) / Double(AV_TIME_BASE) : nil,
      sampleAspect: aspect.num > 0 && aspect.den > 0 ? av_q2d(aspect) : 1,
      rotation: input.rotation, colourTags: colour.summary,
      conversionMatrix: av_color_space_name(matrix).map { String(cString: $0) } ?? "unknown",
      dynamicRange: colour.dynamicRange,
      transferName: name(av_color_transfer_name(colour.transfer)),
      primariesName: name(av_color_primaries_name(colour.primaries)), hdrMetadata: metadata,
      containerName: input.context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "",
      cutShort: input.cutShort)
  }

  /// Fills what `metadata` lacks from the side data of the first frame of `path`'s video (HEVC carries
  /// the mastering display and content light level in SEI messages, which only decoding reads), on a
  /// reader of its own so that this one still starts at the beginning; a file that does not decode
  /// leaves `metadata` as it is (decoding it later says what is wrong).
  private static func readFirstFrameMetadata(
    of path: String, pixelLimit: Int?, into metadata: inout HDRMetadata
  ) {
    guard let file = try? InputFile(path: path, pixelLimit: pixelLimit),
      let decoder = try? VideoDecoder(stream: file.videoStream, path: path, pixelLimit: pixelLimit),
      let buffers = try? DecodeBuffers(for: "HDR metadata")
    else { return }
    defer { buffers.free() }
    // The first frame comes within a few packets (the decoder's delay); give up after a second's worth.
    var packets = 0
    while packets < 64, (try? file.read(into: buffers.packet)) == true {
      guard Int(buffers.packet.pointee.stream_index) == file.videoIndex else { continue }
      packets += 1
      guard (try? decoder.send(buffers.packet)) != nil else { return }
      if (try? decoder.receive(into: buffers.frame)) == true {
        metadata.adopt(frameSideDataOf: buffers.frame)
        return
      }
    }
    // A short clip ends before the decoder's delay: flush it for the first frame.
    guard (try? decoder.send(nil)) != nil, (try? decoder.receive(into: buffers.frame)) == true
    else { return }
    metadata.adopt(frameSideDataOf: buffers.frame)
  }

  /// Every stream of the file in order, as its kind and codec ("video h264", "audio aac", "data
  /// mebx").
  var streamDescriptions: [String] {
    input.streams.map { stream in
      let parameters = stream.pointee.codecpar.pointee
      let kind = av_get_media_type_string(parameters.codec_type).map { String(cString: $0) }
      // A codec FFmpeg does not know (a phone's `mebx` metadata, `apac` audio) by its tag.
      let codec =
        parameters.codec_id == AV_CODEC_ID_NONE
        ? CopiedStreams.tagName(parameters.codec_tag)
        : avcodec_get_name(parameters.codec_id).map { String(cString: $0) }
      return [kind ?? "unknown", codec ?? "unknown"].joined(separator: " ")
    }
  }

  /// The stream's average frame rate, or its base rate when the average is unknown.
  static func frameRate(of stream: UnsafeMutablePointer<AVStream>) -> AVRational {
    stream.pointee.avg_frame_rate.num > 0
      ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
  }
}
