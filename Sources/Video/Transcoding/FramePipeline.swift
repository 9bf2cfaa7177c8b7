import CFFmpeg

/// One decoded frame's way through the caller, in two steps that may run on two threads: video pixels
/// to packed RGB in a ``FrameSlot`` (``load(_:timestamp:into:)``), then, after the caller's render, RGB
/// back to the output's pixel format with the frame's own timestamp (``encodable(_:changed:)``), HDR
/// frames tone-mapped to SDR on the way when the pipeline has a ``RGBToneMapper``.
final class FramePipeline: @unchecked Sendable {
  private let encoded: UnsafeMutablePointer<AVFrame>
  private let decoded: UnsafeMutablePointer<AVFrame>
  private let source: VideoSource
  private let inputFormat: AVPixelFormat
  private let outputFormat: AVPixelFormat
  private let toRGB: FrameConverter
  private let fromRGB: FrameConverter
  private let startTime: Int64
  private var clock: FrameClock
  /// How many ticks earlier than decoded frames are encoded (a trimmed start).
  var shift: Int64
  private let timeBase: AVRational
  private let name: String
  private var index = 0
  /// The bytes of one row of packed RGB.
  private let rgbRowBytes: Int
  /// The decoded and the output frames as a ``PlanarConversion`` takes them (nil: it does not).
  private let planarFormats: (input: PlanarFormat?, output: PlanarFormat?)
  /// The tone mapping of rendered 16-bit R′G′B′ to SDR rgb24 before the conversion back, and its
  /// frame buffer (nil: none).
  private let toneMapper: RGBToneMapper?
  private let sdr: UnsafeMutableRawBufferPointer?
  /// False when frames are converted to RGB only when the caller's render needs it
  /// (``loadRGB(_:)``), not as they are loaded.
  var convertsAhead = true

  /// The bytes of one frame as packed RGB.
  var rgbBytes: Int { rgbRowBytes * source.height }

  /// A pipeline for frames of `source`'s size in `inputFormat`, encoded in `outputFormat`, both
  /// converted with `matrix` and `fullRange` (the output with `outputMatrix` and `outputFullRange`
  /// when given) through packed RGB of `rgbSampleBytes` per sample (1: rgb24, 2: rgb48le); timestamps
  /// count in `timeBase` from `startTime`. `planar` may supply the conversions of yuv420p and
  /// yuv420p10le in place of libswscale. With `toneMapper`, the rendered 16-bit R′G′B′ is tone-mapped
  /// to SDR rgb24, which is converted to `outputFormat` (with `outputMatrix` and `outputFullRange`).
  init(
    source: VideoSource, inputFormat: AVPixelFormat, outputFormat: AVPixelFormat,
    rgbSampleBytes: Int, matrix: AVColorSpace, fullRange: Bool, outputMatrix: AVColorSpace? = nil,
    outputFullRange: Bool? = nil, startTime: Int64, timeBase: AVRational, name: String,
    planar: PlanarConversionMaker? = nil, toneMapper: RGBToneMapper? = nil
  ) throws(VideoError) {
    shift = 0
    self.source = source
    self.inputFormat = inputFormat
    self.outputFormat = outputFormat
    self.startTime = startTime == fd_no_pts() ? 0 : startTime
    clock = FrameClock(startTime: startTime)
    self.timeBase = timeBase
    self.name = name
    let rgbFormat = rgbSampleBytes == 2 ? AV_PIX_FMT_RGB48LE : AV_PIX_FMT_RGB24
    toRGB = try FrameConverter(
      width: source.width, height: source.height, from: inputFormat, to: rgbFormat,
      matrix: matrix, fullRange: fullRange, planar: planar)
    let (outMatrix, outFullRange) = (outputMatrix ?? matrix, outputFullRange ?? fullRange)
    fromRGB = try FrameConverter(
      width: source.width, height: source.height,
      from: toneMapper == nil ? rgbFormat : AV_PIX_FMT_RGB24, to: outputFormat,
      matrix: outMatrix, fullRange: outFullRange, planar: planar)
    rgbRowBytes = source.width * 3 * rgbSampleBytes
    planarFormats = (
      FrameConverter.planarFormat(
        yuv: inputFormat, width: source.width, height: source.height, matrix: matrix,
        fullRange: fullRange),
      FrameConverter.planarFormat(
        yuv: outputFormat, width: source.width, height: source.height, matrix: outMatrix,
        fullRange: outFullRange)
    )
    self.toneMapper = toneMapper
    sdr =
      toneMapper == nil
      ? nil : .allocate(byteCount: source.width * 3 * source.height, alignment: 64)
    guard let decoded = av_frame_alloc(), let encoded = av_frame_alloc() else {
      throw VideoError("out of memory for video frames")
    }
    self.decoded = decoded
    self.encoded = encoded
    encoded.pointee.width = Int32(source.width)
    encoded.pointee.height = Int32(source.height)
    encoded.pointee.format = outputFormat.rawValue
    try VideoError.check(av_frame_get_buffer(encoded, 0), "out of memory for video frames")
  }

  deinit {
    sdr?.deallocate()
    var frames: [UnsafeMutablePointer<AVFrame>?] = [decoded, encoded]
    for index in frames.indices { av_frame_free(&frames[index]) }
  }

  /// The decoder's next frame, or nil when it needs more packets or is done.
  func next(from decoder: VideoDecoder) throws(VideoError) -> UnsafeMutablePointer<AVFrame>? {
    av_frame_unref(decoded)
    return try decoder.receive(into: decoded) ? decoded : nil
  }

  /// Moves `frame` (presented at `timestamp`, ``timestamp(of:)``) into `slot` and, when it
  /// ``convertsAhead``, converts it to RGB there; the slot's output timestamp is `timestamp` less the
  /// shift.
  ///
  /// - Throws: ``VideoError`` when the frame's size or format differs from the stream's (a change
  ///   mid-stream), or the conversion fails.
  func load(_ frame: UnsafeMutablePointer<AVFrame>, timestamp: Int64, into slot: FrameSlot)
    throws(VideoError)
  {
    let (width, height) = (Int(frame.pointee.width), Int(frame.pointee.height))
    guard width == source.width, height == source.height,
      frame.pointee.format == inputFormat.rawValue
    else {
      throw VideoError(
        "\(name): frame \(index + 1) is \(width)×\(height) "
          + "\(VideoEncoder.name(of: AVPixelFormat(rawValue: frame.pointee.format))), not "
          + "\(source.width)×\(source.height) \(source.pixelFormatName): "
          + "video that changes size or format mid-stream is not processed")
    }
    av_frame_unref(slot.decoded)
    av_frame_move_ref(slot.decoded, frame)
    slot.rgbReady = false
    if convertsAhead { try loadRGB(slot) }
    slot.timestamp = timestamp
    slot.outputTimestamp = timestamp - shift
    slot.time = Double(timestamp - startTime) * av_q2d(timeBase)
    slot.index = index
    index += 1
  }

  /// Converts `slot`'s decoded frame to RGB unless that is done.
  ///
  /// - Throws: ``VideoError`` when the conversion fails.
  func loadRGB(_ slot: FrameSlot) throws(VideoError) {
    guard !slot.rgbReady else { return }
    guard let inBase = slot.rgbIn.baseAddress else {
      throw VideoError("\(name): empty frame buffers")
    }
    try toRGB.convert(slot.decoded, into: inBase, stride: rgbRowBytes)
    slot.rgbReady = true
  }

  /// `slot`'s decoded planes when the frames are 10-bit 4:2:0 (yuv420p10le), nil otherwise.
  func decodedPlanes(_ slot: FrameSlot) throws(VideoError) -> VideoTranscoder.DecodedPlanes? {
    guard let format = planarFormats.input, format.depth == 10 else { return nil }
    let frame = slot.decoded.pointee
    let planes = [frame.data.0, frame.data.1, frame.data.2].compactMap {
      $0.map { UnsafeRawPointer($0) }
    }
    guard planes.count == 3 else { throw VideoError("\(name): a video frame has no planes") }
    return VideoTranscoder.DecodedPlanes(
      format: format, planes: planes,
      strides: [frame.linesize.0, frame.linesize.1, frame.linesize.2].map { Int($0) })
  }

  /// True when frames may be rendered on their planes (``planarFrame(_:)``): 8-bit or 10-bit 4:2:0
  /// video written in its own format, or 10-bit 4:2:0 tone-mapped to 8-bit 4:2:0, converted by the
  /// caller's ``PlanarConversion`` both ways.
  var rendersPlanar: Bool {
    let formats =
      toneMapper == nil ? [AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P10LE] : [AV_PIX_FMT_YUV420P10LE]
    let output = toneMapper == nil ? inputFormat : AV_PIX_FMT_YUV420P
    return formats.contains(inputFormat) && outputFormat == output && toRGB.isPlanar
      && fromRGB.isPlanar
  }

  /// `slot`'s decoded planes and the planes of the frame to encode, made writable.
  ///
  /// - Throws: ``VideoError`` when memory runs out.
  func planarFrame(_ slot: FrameSlot) throws(VideoError) -> PlanarFrame {
    try VideoError.check(av_frame_make_writable(encoded), "out of memory for video frames")
    let (input, output) = (slot.decoded.pointee, encoded.pointee)
    let inPlanes = [input.data.0, input.data.1, input.data.2].compactMap {
      $0.map { UnsafeRawPointer($0) }
    }
    let outPlanes = [output.data.0, output.data.1, output.data.2].compactMap {
      $0.map { UnsafeMutableRawPointer($0) }
    }
    guard inPlanes.count == 3, outPlanes.count == 3, let format = planarFormats.input,
      let outputFormat = planarFormats.output
    else {
      throw VideoError("\(name): a video frame has no planes")
    }
    return PlanarFrame(
      format: format, outputFormat: outputFormat, toneMapper: toneMapper, input: inPlanes,
      inputStrides: [input.linesize.0, input.linesize.1, input.linesize.2].map { Int($0) },
      output: outPlanes,
      outputStrides: [output.linesize.0, output.linesize.1, output.linesize.2].map { Int($0) },
      time: slot.time, index: slot.index)
  }

  /// The frame the caller rendered on its planes (``planarFrame(_:)``), with `slot`'s output
  /// timestamp.
  func encodablePlanar(_ slot: FrameSlot) -> UnsafeMutablePointer<AVFrame> {
    encoded.pointee.pts = slot.outputTimestamp
    encoded.pointee.pict_type = AV_PICTURE_TYPE_NONE
    return encoded
  }

  /// The frame to encode for `slot` after the caller's render: its output converted back (through the
  /// tone mapper, when there is one) when `changed`; else the decoded frame itself when the output's
  /// pixel format is the input's, so an unchanged frame loses nothing to the round trip through RGB. It
  /// carries the slot's output timestamp and stays valid until the slot or this method is used again.
  ///
  /// - Throws: ``VideoError`` when the conversion fails.
  func encodable(_ slot: FrameSlot, changed: Bool) throws(VideoError)
    -> UnsafeMutablePointer<AVFrame>
  {
    guard changed || outputFormat != inputFormat else {
      slot.decoded.pointee.pts = slot.outputTimestamp
      slot.decoded.pointee.pict_type = AV_PICTURE_TYPE_NONE
      return slot.decoded
    }
    if !changed { try loadRGB(slot) }
    guard let inBase = slot.rgbIn.baseAddress, let outBase = slot.rgbOut.baseAddress else {
      throw VideoError("\(name): empty frame buffers")
    }
    try VideoError.check(av_frame_make_writable(encoded), "out of memory for video frames")
    if let toneMapper, let sdr, let sdrBase = sdr.baseAddress {
      try toneMapper.map(
        changed ? UnsafeRawBufferPointer(slot.rgbOut) : UnsafeRawBufferPointer(slot.rgbIn),
        into: sdr)
      try fromRGB.convert(sdrBase, stride: source.width * 3, into: encoded)
    } else {
      if !changed { outBase.copyMemory(from: inBase, byteCount: slot.rgbIn.count) }
      try fromRGB.convert(outBase, stride: rgbRowBytes, into: encoded)
    }
    encoded.pointee.pts = slot.outputTimestamp
    encoded.pointee.pict_type = AV_PICTURE_TYPE_NONE
    return encoded
  }

  /// The frame's presentation timestamp (see ``FrameClock``). Called once per frame, in order.
  func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Int64 {
    clock.timestamp(of: frame)
  }
}

extension VideoTranscoder.Frame {
  /// The caller's view of `slot`.
  init(_ slot: FrameSlot) {
    self.init(
      input: UnsafeRawBufferPointer(slot.rgbIn), output: slot.rgbOut, time: slot.time,
      index: slot.index)
  }

  /// The caller's view of `slot` played as its decoded `planes` (no RGB in).
  init(_ slot: FrameSlot, planes: VideoTranscoder.DecodedPlanes) {
    self.init(
      input: UnsafeRawBufferPointer(start: nil, count: 0), output: slot.rgbOut, time: slot.time,
      index: slot.index, planes: planes)
  }
}
