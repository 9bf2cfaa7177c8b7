import CFFmpeg
import Foundation

/// Reads a video file, hands every decoded frame to the caller as packed RGB (8-bit for 8-bit SDR
/// video, 16-bit for deeper or HDR video: see ``rgbSampleBytes``), and encodes what the caller made of
/// it into a new file, with every audio and subtitle stream copied as it is. A caller may instead
/// render 8-bit and 10-bit 4:2:0 frames on their planes (``planarRender``).
///
/// Written in formats players decode (see OutputFormat.swift): H.264 8-bit 4:2:0, or HEVC 4:2:0 (10-bit
/// for input deeper than 8 bits), tagged `hvc1` in MP4 and MOV; the first frames of every file written
/// are decoded back before it counts as done (``WrittenVideoCheck``). Kept from the input: each frame's
/// timestamp (variable frame rate stays variable; no frame is added or dropped), the colour tags (YUV
/// output from RGB input is tagged with the matrix it is converted with), the sample aspect ratio, the
/// display matrix (rotation stays metadata: the pixels are processed as coded), stream and container
/// metadata. HDR input (HLG, PQ) is kept HDR or tone-mapped to SDR (``EncoderSettings/hdr``). Refused
/// with a ``VideoError``: more than 16 bits per sample.
///
/// Decoding and the conversion to RGB run on a thread of their own, up to three frames ahead (buffers
/// reused frame after frame); the caller's render, the conversion back and the encoder run on the
/// calling thread, the encoder and the decoder each with FFmpeg's automatic thread count.
///
/// It also plays a video for a live viewer (``play(choose:show:)``: frames in order as packed RGB,
/// from the start on every call) and takes single frames (``frame(at:render:)``).
///
/// Damage is refused as far as its ``VideoFailOn`` level says (by default any damage the decoder or
/// demuxer notices: a stream that ends before its index says, a decode error, a concealed frame, a
/// warning), with one message naming the file and the time where the damage starts; FFmpeg's own
/// lines about the file are gathered into it (``DamageWatch``). What the level lets through is
/// written as the decoder makes it and reported in ``damage``.
public final class VideoTranscoder {
  /// One frame handed to the caller: packed RGB rows (`width × 3 × rgbSampleBytes` bytes; 16-bit samples
  /// little-endian) in, the same layout out; or, played as planes (``playsPlanes``), the decoded planes.
  public struct Frame {
    /// The decoded frame (empty when it comes as ``planes``).
    public let input: UnsafeRawBufferPointer
    /// Where the caller writes the processed frame.
    public let output: UnsafeMutableRawBufferPointer
    /// Presentation time in seconds from the video stream's first frame.
    public let time: Double
    /// The frame's number, from 0, in presentation order.
    public let index: Int
    /// The decoded Y, U and V planes of a frame played as planes (``playsPlanes``), nil otherwise.
    public var planes: DecodedPlanes? = nil
  }

  /// A decoded frame's Y, U and V planes, valid while the caller's `show` runs.
  public struct DecodedPlanes {
    /// The planes' size, depth and colour.
    public let format: PlanarFormat
    /// The Y, U and V planes.
    public let planes: [UnsafeRawPointer]
    /// Bytes from one row to the next in each plane.
    public let strides: [Int]
  }

  /// What the input's video stream says.
  public let source: VideoSource
  /// Bytes per sample of the RGB frames handed to the caller: 1 (rgb24) for SDR video of up to 8 bits,
  /// 2 (rgb48le) for deeper video, so 10-bit levels survive the render, and for HDR video of any depth,
  /// whose 16-bit R′G′B′ the tone mapping takes.
  public var rgbSampleBytes: Int { source.bitDepth > 8 || source.dynamicRange.isHDR ? 2 : 1 }
  /// Streams not carried to the output (data, attachments, further video), by input index and kind.
  public let skippedStreams: [String]
  /// Supplies the conversions between yuv420p or yuv420p10le video and RGB in place of libswscale
  /// (nil: libswscale converts every format).
  public var planarConversion: PlanarConversionMaker?
  /// Renders 8-bit and 10-bit 4:2:0 frames on their planes in
  /// ``write(to:outputName:settings:span:render:progress:)``, before and in place of `render`, when
  /// the video is written in its own pixel format (or, HDR tone-mapped, as 8-bit 4:2:0 through the
  /// frame's ``PlanarFrame/toneMapper``) and ``planarConversion`` converts it: ``PlanarOutcome/needsRGB``
  /// passes the frame on to `render`. Such frames are converted to RGB only when they reach `render`,
  /// on the calling thread.
  public var planarRender: ((PlanarFrame) throws -> PlanarOutcome)?
  /// When true, ``play(choose:show:)`` hands HDR video's 10-bit 4:2:0 frames (yuv420p10le) to `show`
  /// as their decoded planes (``Frame/planes``, ``Frame/input`` empty) instead of converting them to
  /// rgb48le, for a caller that scales them before converting (the studio's viewfinder). Frames of
  /// other formats still come as RGB.
  public var playsPlanes = false

  // Internal, not private: playback (VideoTranscoder+Playback.swift) decodes through them too.
  let input: InputFile
  let decoder: VideoDecoder
  let pixelFormat: AVPixelFormat
  private let colour: ColourTags
  let matrix: AVColorSpace
  let fullRange: Bool
  /// True once ``play(choose:show:)`` has read the file: the next pass seeks back to the start.
  var hasPlayed = false
  /// What checks the decoding for damage.
  let watch: DamageWatch

  /// The damage the last ``write(to:outputName:settings:span:render:progress:)``,
  /// ``frame(at:render:)``, ``toneMappedFrame(at:render:still:)`` or ``play(choose:show:)`` met and
  /// the ``failOn`` level let through (nil: none); set when it returns.
  public internal(set) var damage: VideoDamage?

  /// How much damage is refused.
  public var failOn: VideoFailOn { watch.level }

  /// The largest frame taken, in pixels (nil: no limit): the limit stills have by default.
  public static let defaultPixelLimit = 100_000_000

  /// The largest frame decoded (and, for ``frame(at:render:)``, shown), in pixels; nil for none.
  public let pixelLimit: Int?

  /// Opens `path` and checks that its video can be processed, with frames of at most `pixelLimit`
  /// pixels (nil: no limit), checked before any frame's memory is taken; damage met in decoding it is
  /// refused as `failOn` says.
  ///
  /// - Throws: ``VideoError`` naming the file: not readable, no video stream, no decoder, more than 16
  ///   bits per sample, frames over the pixel limit.
  public init(
    path: String, pixelLimit: Int? = VideoTranscoder.defaultPixelLimit,
    failOn: VideoFailOn = .warning
  ) throws(VideoError) {
    // FFmpeg's own errors about opening the file still reach standard error (they say why a file is
    // refused); what its decoder and demuxer say later is gathered into FrameDial's messages, and its
    // notes are left out (see FFmpegLog for the form of its lines).
    FFmpegLog.gather()
    let watch = DamageWatch(level: failOn, path: path, pixelLimit: pixelLimit)
    watch.begin()
    defer { watch.end() }
    let opened = try Self.open(path, pixelLimit: pixelLimit, watch: watch)
    self.watch = watch
    if let refusal = opened.refusal { throw VideoError("\(path): \(refusal)") }
    self.pixelLimit = pixelLimit
    input = opened.input
    decoder = opened.decoder
    pixelFormat = opened.pixelFormat
    colour = opened.colour
    matrix = opened.matrix
    fullRange = opened.fullRange
    source = opened.source
    skippedStreams = CopiedStreams.skipped(in: input, into: nil)
  }

  /// The streams not carried to a file named `outputName`, by input index and why: those of
  /// ``skippedStreams``, and subtitles whose codec its container cannot hold ("stream 2 (subtitle
  /// mov_text, which FFmpeg's matroska muxer cannot hold)").
  public func skippedStreams(outputName: String) -> [String] {
    CopiedStreams.skipped(in: input, into: av_guess_format(nil, outputName, nil))
  }

  /// Opens `path` as ``OpenedVideo`` does, its lines going to `watch` (on the calling thread, which
  /// the watch has begun on). When that fails, a file whose index lists frames past its end is
  /// refused as cut short (the reason it cannot be opened whole); otherwise the message ends with
  /// what the demuxer said meanwhile, which says why.
  private static func open(_ path: String, pixelLimit: Int?, watch: DamageWatch)
    throws(VideoError) -> OpenedVideo
  {
    do {
      let opened = try OpenedVideo(path: path, pixelLimit: pixelLimit, watch: watch)
      watch.opened()
      return opened
    } catch {
      if let cut = watch.cutShort {
        throw VideoError(
          "\(path): cut short at \(secondsText(cut.endsAt)): it holds \(cut.framesInFile) of "
            + "the \(cut.framesListed) frames its index lists")
      }
      guard let held = watch.lines.held else { throw error }
      throw VideoError(
        "\(error.message) (\(held.first)" + (held.count > 1 ? ", and \(held.count - 1) more)" : ")")
      )
    }
  }

  /// What `path`'s video stream says, with every stream of the file ("video h264", "audio aac") and why
  /// the stream would not be processed (nil when it would), for a caller that only describes the file.
  ///
  /// - Throws: ``VideoError`` naming the file when FFmpeg cannot open it or describe its video stream.
  public static func facts(of path: String) throws(VideoError) -> VideoFacts {
    FFmpegLog.gather()
    // What FFmpeg's first look decodes is decoded again by a transcode, which says what is wrong.
    let watch = DamageWatch(level: .none, path: path, pixelLimit: nil)
    watch.begin()
    defer { watch.end() }
    let opened = try open(path, pixelLimit: nil, watch: watch)
    return VideoFacts(
      source: opened.source, streams: opened.streamDescriptions, refusal: opened.refusal)
  }

  /// False when the container `outputName`'s extension names drops a stream's display matrix in this
  /// FFmpeg: Matroska (FFmpeg 5.1's Matroska muxer writes no rotation), so rotated video would play
  /// unrotated.
  public static func keepsRotation(outputName: String) -> Bool {
    guard let format = av_guess_format(nil, outputName, nil), let name = format.pointee.name else {
      return true
    }
    return String(cString: name) != "matroska"
  }

  /// Why `outputName` names no container ``write(to:outputName:settings:span:render:progress:)`` writes
  /// (no container for its extension, an image, a muxer that writes files of its own such as HLS), or
  /// nil.
  public static func containerProblem(outputName: String) -> String? {
    OutputFile.containerProblem(outputName: outputName)
  }

  /// True when the encoder of `codec` exists in this FFmpeg.
  public static func isAvailable(_ codec: VideoCodec) -> Bool {
    VideoEncoder.isAvailable(codec)
  }

  /// Writes the processed video to `path` in the container `outputName`'s extension names (`path` may
  /// be a temporary file; `outputName` is the file named in messages), the part `span` says (see
  /// ``TimeSpan``: the whole video by default). `render` is called once per frame in presentation
  /// order and returns true when it wrote the frame's output, false when the frame is to be encoded
  /// unchanged (no round trip through RGB); `progress` is called after each frame is encoded, with the
  /// frames done.
  ///
  /// - Throws: ``VideoError`` naming the file for any failure of reading, decoding, encoding or
  ///   writing, damage ``failOn`` refuses in the span (a stream cut short before the span ends is
  ///   refused before anything is written), or when no frame lies in `span`; what `render` throws
  ///   (which stops the run; the caller removes `path`).
  public func write(
    to path: String, outputName: String, settings: EncoderSettings, span: TimeSpan = TimeSpan(),
    render: (Frame) throws -> Bool, progress: (Int) -> Void = { _ in }
  ) throws {
    damage = nil
    watch.reset()
    var cut = bounds(of: span)
    watch.until = cut.upper
    try watch.checkIndex()
    let stream = input.videoStream
    let codec = codec(for: settings)
    if let problem = hdrProblem(for: settings) { throw VideoError("\(outputName): \(problem)") }
    let outputFormat = outputPixelFormat(for: settings)
    let output = try OutputFile(path: path, formatFor: outputName, name: outputName)
    // RGB input becomes Y′CbCr tagged with the matrix and range it is converted with.
    let rgbOutput = colour.yuvTags(fromRGB: pixelFormat)
    var encoderColour = rgbOutput ?? colour
    if rgbOutput == nil, fullRange { encoderColour.range = AVCOL_RANGE_JPEG }
    // Tone-mapped HDR: frames are rendered on their HDR codes, then mapped to SDR BT.709 (TV range)
    // on the way back to Y′CbCr, by the caller's planar render or by the pipeline.
    let toneMapper =
      try mapsHDRToSDR(settings)
      ? RGBToneMapper(
        width: source.width, height: source.height, colour: encoderColour,
        metadata: source.hdrMetadata) : nil
    if toneMapper != nil { encoderColour = .bt709 }
    let rate = OpenedVideo.frameRate(of: stream)
    let sampleAspect = av_guess_sample_aspect_ratio(input.context, stream, nil)
    let encoder = try VideoEncoder(
      codec: codec, settings: settings,
      format: VideoEncoder.Format(
        width: source.width, height: source.height,
        pixelFormat: outputFormat,
        timeBase: stream.pointee.time_base, frameRate: rate,
        sampleAspect: sampleAspect,
        colour: encoderColour,
        x265Parameters: keepsHDR(settings)
          ? HDREncoding.x265Parameters(colour: encoderColour, metadata: source.hdrMetadata) : []),
      globalHeader: output.wantsGlobalHeader)
    var outputIndex: [Int: Int] = [:]
    for (index, inputStream) in input.streams.enumerated() {
      if index == input.videoIndex {
        let written = try output.addEncodedStream(
          encoder, like: inputStream, sampleAspect: sampleAspect)
        if keepsHDR(settings) { try source.hdrMetadata.attach(to: written) }
      } else if CopiedStreams.skipReason(
        inputStream, of: input, into: output.context.pointee.oformat) == nil
      {
        try output.checkHolds(inputStream, index: index, of: input.path)
        _ = try output.addCopiedStream(like: inputStream)
      } else {
        continue
      }
      outputIndex[index] = Int(output.context.pointee.nb_streams) - 1
    }
    output.copyMetadata(from: input.context)
    try output.writeHeader()
    guard let videoOutput = outputIndex[input.videoIndex] else {
      throw VideoError("\(outputName): the video stream was not added")
    }
    try settleStart(of: &cut, seconds: span.start)
    let pipeline = try FramePipeline(
      source: source, inputFormat: pixelFormat, outputFormat: outputFormat,
      rgbSampleBytes: rgbSampleBytes, matrix: matrix, fullRange: fullRange,
      outputMatrix: toneMapper != nil ? AVCOL_SPC_BT709 : rgbOutput?.matrix ?? matrix,
      outputFullRange: toneMapper == nil && rgbOutput == nil && fullRange,
      startTime: stream.pointee.start_time, timeBase: stream.pointee.time_base, name: input.path,
      planar: planarConversion, toneMapper: toneMapper)
    pipeline.shift = cut.shift
    guard let packet = av_packet_alloc() else { throw VideoError("out of memory for a packet") }
    var owned: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&owned) }
    func drainEncoder() throws {
      while try encoder.receive(into: packet) {
        try output.write(packet, from: encoder.context.pointee.time_base, to: videoOutput)
      }
    }
    // Decoding and the conversion to RGB run on a thread of their own, a few frames ahead of the
    // render, the conversion back and the encoder (which has threads of its own) on this one.
    // Frames the caller renders on their planes are converted to RGB only when it asks for that.
    pipeline.convertsAhead = planarRender == nil || !pipeline.rendersPlanar
    let stage = try DecodeStage(
      input: input, decoder: decoder, watch: watch, pipeline: pipeline, cut: cut,
      outputIndex: outputIndex)
    stage.start()
    defer { stage.stop() }
    var done = 0
    while let item = stage.ready.pop() {
      switch item {
      case .frame(let slot):
        var outcome = PlanarOutcome.needsRGB
        if let planarRender, pipeline.rendersPlanar {
          outcome = try planarRender(try pipeline.planarFrame(slot))
          if outcome == .unchanged, toneMapper != nil { outcome = .needsRGB }
        }
        var processed: UnsafeMutablePointer<AVFrame>
        switch outcome {
        case .rendered:
          processed = pipeline.encodablePlanar(slot)
        case .unchanged:
          processed = try pipeline.encodable(slot, changed: false)
        case .needsRGB:
          try pipeline.loadRGB(slot)
          let changed = try render(Frame(slot))
          processed = try pipeline.encodable(slot, changed: changed)
        }
        try encoder.send(processed)
        try drainEncoder()
        stage.recycle(slot)
        done += 1
        progress(done)
      case .packet(let copied, let target, let timeBase):
        var owned: UnsafeMutablePointer<AVPacket>? = copied
        defer { av_packet_free(&owned) }
        try output.write(copied, from: timeBase, to: target)
      case .failed(let error):
        throw error
      case .end:
        guard done > 0 else {
          throw VideoError(
            "\(input.path): no video frame lies in the span asked for (from \(span.start) s"
              + (span.duration.map { " for \($0) s" } ?? "") + ")")
        }
        try encoder.send(nil)
        try drainEncoder()
        try output.finish()
        try WrittenVideoCheck.check(
          path: path, name: outputName, codec: codec, framesWritten: done)
        damage = watch.report()
        return
      }
    }
    throw VideoError("\(input.path): decoding stopped early")
  }

  /// Decodes the frame displayed at `time` seconds from the video stream's first timestamp — the last
  /// frame whose presentation time is at or before `time`, or the first frame when `time` comes before
  /// it — and calls `render` once with it as packed 8-bit RGB (rgb24, whatever the video's depth;
  /// `output` is the caller's to use). HDR video's frame is tone-mapped to SDR BT.709 (``RGBToneMapper``).
  ///
  /// - Throws: ``VideoError`` naming the file when it cannot be read or decoded or has no frame, or
  ///   when the frame as shown (``VideoSource/displayedWidth``) is over the pixel limit (checked before
  ///   decoding); what `render` throws.
  public func frame(at time: Double, render: (Frame) throws -> Void) throws {
    guard !source.dynamicRange.isHDR else {
      let slot = try FrameSlot(bytes: source.width * source.height * 3)
      func show(_ pixels: UnsafeRawBufferPointer) throws {
        slot.rgbIn.copyMemory(from: pixels)
        slot.time = time
        try render(Frame(slot))
      }
      try toneMappedFrame(at: time, render: { _ in false }, still: show)
      return
    }
    let stream = input.videoStream
    // A still is 8-bit sRGB: the frame comes as rgb24 whatever its depth.
    let pipeline = try FramePipeline(
      source: source, inputFormat: pixelFormat, outputFormat: pixelFormat, rgbSampleBytes: 1,
      matrix: matrix, fullRange: fullRange, startTime: stream.pointee.start_time,
      timeBase: stream.pointee.time_base, name: input.path)
    let slot = try FrameSlot(bytes: pipeline.rgbBytes)
    try decodeFrame(at: time, through: pipeline, into: slot)
    try render(Frame(slot))
  }

  /// The frame of HDR video displayed at `time` (as ``frame(at:render:)`` finds it): `render` gets it
  /// as 16-bit R′G′B′ holding the HLG or PQ codes (rgb48le) and returns true when it wrote its
  /// `output`; the frame (rendered or as decoded) is then tone-mapped to SDR BT.709
  /// (``rgbToneMapper(width:height:)``) and `still` gets it as packed 8-bit full-range RGB (rgb24,
  /// `width × 3` bytes a row).
  ///
  /// - Throws: ``VideoError`` naming the file as ``frame(at:render:)`` does, or when the video is not
  ///   HDR; what `render` and `still` throw.
  public func toneMappedFrame(
    at time: Double, render: (Frame) throws -> Bool,
    still: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    guard source.dynamicRange.isHDR else {
      throw VideoError("\(input.path): not HDR video: there is nothing to tone-map")
    }
    let stream = input.videoStream
    let pipeline = try FramePipeline(
      source: source, inputFormat: pixelFormat, outputFormat: pixelFormat, rgbSampleBytes: 2,
      matrix: matrix, fullRange: fullRange, startTime: stream.pointee.start_time,
      timeBase: stream.pointee.time_base, name: input.path)
    let toneMapper = try rgbToneMapper(width: source.width, height: source.height)
    let slot = try FrameSlot(bytes: pipeline.rgbBytes)
    try decodeFrame(at: time, through: pipeline, into: slot)
    let frame = Frame(slot)
    let changed = try render(frame)
    var pixels = [UInt8](repeating: 0, count: source.width * 3 * source.height)
    try pixels.withUnsafeMutableBytes {
      try toneMapper.map(changed ? UnsafeRawBufferPointer(frame.output) : frame.input, into: $0)
    }
    try pixels.withUnsafeBytes { try still($0) }
  }

  /// A tone mapper of this HDR video's frames as 16-bit R′G′B′ (rgb48le, as ``play(choose:show:)``
  /// and ``toneMappedFrame(at:render:still:)`` hand them over), scaled or not to `width × height`,
  /// to packed 8-bit SDR RGB.
  ///
  /// - Throws: ``VideoError`` when the video is not HDR, or the size is not positive.
  public func rgbToneMapper(width: Int, height: Int) throws(VideoError) -> RGBToneMapper {
    guard source.dynamicRange.isHDR else {
      throw VideoError("\(input.path): not HDR video: there is nothing to tone-map")
    }
    return try RGBToneMapper(
      width: width, height: height, colour: colour, metadata: source.hdrMetadata)
  }

  /// Decodes the frame displayed at `time` (see ``frame(at:render:)``) into `slot` through
  /// `pipeline`, converted to RGB.
  private func decodeFrame(at time: Double, through pipeline: FramePipeline, into slot: FrameSlot)
    throws
  {
    if let problem = PixelLimit.problem(
      width: source.displayedWidth, height: Double(source.height), limit: pixelLimit,
      what:
        "its \(source.width)×\(source.height) frames, of pixel aspect "
        + String(format: "%g", source.sampleAspect) + ", are shown "
        + PixelLimit.count(source.displayedWidth) + "×\(source.height)")
    {
      throw VideoError("\(input.path): \(problem)")
    }
    let target = bounds(of: TimeSpan(start: time)).start
    damage = nil
    watch.reset()
    // The frame shown at `time` is the last at or before it: frames from the next on are not needed.
    watch.until = target < Int64.max ? target + 1 : target
    try watch.checkIndex()
    watch.begin()
    defer { watch.end() }
    if time > 0 {
      try input.seekVideo(before: target)
      decoder.flush()
    }
    let buffers = try DecodeBuffers(for: "a frame")
    defer { buffers.free() }
    let (packet, held) = (buffers.packet, buffers.frame)
    var heldTimestamp: Int64?
    var found = false
    func drainDecoder() throws {
      while !found, let frame = try pipeline.next(from: decoder) {
        let timestamp = pipeline.timestamp(of: frame)
        if timestamp > target, heldTimestamp != nil {
          found = true
          return
        }
        av_frame_unref(held)
        av_frame_move_ref(held, frame)
        heldTimestamp = timestamp
        found = timestamp >= target
      }
    }
    while !found, try watch.read(input, into: packet) {
      guard Int(packet.pointee.stream_index) == input.videoIndex else { continue }
      try decoder.send(packet)
      try drainDecoder()
    }
    if !found {
      try decoder.send(nil)
      try drainDecoder()
    }
    guard let heldTimestamp else { throw VideoError("\(input.path): has no video frame") }
    try pipeline.load(held, timestamp: heldTimestamp, into: slot)
    damage = watch.report()
  }

  /// `span` in the video stream's timestamps: the first kept (`lower`, nil from the start), the first
  /// past it (`upper`, nil to the end), and the shift that moves the kept start to 0 (see
  /// ``SpanBounds/init(span:origin:timeBase:)`` for times past what timestamps hold).
  private func bounds(of span: TimeSpan) -> SpanBounds {
    let stream = input.videoStream.pointee
    let origin = stream.start_time == fd_no_pts() ? 0 : stream.start_time
    return SpanBounds(span: span, origin: origin, timeBase: stream.time_base)
  }
}
