import CFFmpeg

/// A media file being muxed: streams added (one encoded, the others copied as they are), the header,
/// packets in interleaved order, the trailer.
final class OutputFile {
  /// FFmpeg's muxer context (owned, with its open file).
  let context: UnsafeMutablePointer<AVFormatContext>
  /// The name the messages give the file.
  private let name: String
  private var headerWritten = false

  /// Opens `path` for writing in the container `formatName`'s extension picks (`path` may be a
  /// temporary without one); `name` is the file named in messages.
  ///
  /// - Throws: ``VideoError`` when the extension names no container FFmpeg writes, or the file cannot
  ///   be created.
  init(path: String, formatFor formatName: String, name: String) throws(VideoError) {
    self.name = name
    if let problem = Self.containerProblem(outputName: formatName) {
      throw VideoError("\(name): \(problem)")
    }
    guard let format = av_guess_format(nil, formatName, nil) else {
      throw VideoError("\(name): cannot be written")
    }
    var created: UnsafeMutablePointer<AVFormatContext>?
    try VideoError.check(
      avformat_alloc_output_context2(&created, format, nil, nil), "\(name): cannot be written")
    guard let created else { throw VideoError("\(name): cannot be written") }
    context = created
    if format.pointee.flags & AVFMT_NOFILE == 0 {
      try VideoError.check(
        // Always a local file, whatever the name looks like ("http:…" is a folder name here).
        avio_open(&created.pointee.pb, "file:" + path, AVIO_FLAG_WRITE),
        "\(name): cannot be created")
    }
  }

  /// FFmpeg's muxers that hold H.264 or HEVC and write one whole file through FFmpeg's own I/O, which
  /// FrameDial writes as a temporary and renames: MP4, MOV, M4V, Matroska, AVI, MPEG-TS, 3GP, MPEG-PS,
  /// FLV, NUT. Others are refused before any work: images, containers without those codecs (WebM, GIF),
  /// and streaming muxers (HLS, DASH, segments) that write files of their own beside the output.
  static let singleFileMuxers: Set<String> = [
    "mp4", "mov", "ipod", "matroska", "avi", "mpegts", "3gp", "3g2", "mpeg", "flv", "nut",
  ]

  /// Why the container `outputName`'s extension picks is not written (no container, an image, a
  /// muxer that writes several files), or nil.
  static func containerProblem(outputName: String) -> String? {
    guard let format = av_guess_format(nil, outputName, nil), let raw = format.pointee.name else {
      return "FFmpeg writes no video container for this name's extension (try .mp4, .mov or .mkv)"
    }
    let muxer = String(cString: raw)
    if singleFileMuxers.contains(muxer) { return nil }
    if muxer == "image2" || muxer.hasSuffix("_pipe") {
      return "names an image, not a video: write one frame as a still with --frame-at T, "
        + "or name a video file (.mp4, .mov, .mkv)"
    }
    return "FFmpeg's \(muxer) container is not one FrameDial writes (it writes one H.264 or HEVC "
      + "file: MP4, MOV, M4V, Matroska, AVI, MPEG-TS, 3GP, MPEG-PS, FLV or NUT): "
      + "name an .mp4, .mov, .mkv, .avi or .ts file"
  }

  deinit {
    if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
      avio_closep(&context.pointee.pb)
    }
    avformat_free_context(context)
  }

  /// True when the container wants codec headers apart from the stream (MP4, MOV, Matroska).
  var wantsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

  /// Adds a stream that `encoder` fills, taking `source`'s metadata, disposition and display matrix,
  /// and its sample aspect ratio `sampleAspect` even where the encoder drops it: FFmpeg's encoders
  /// refuse a ratio that would scale a side below one pixel (50:1 on 48 lines), which the container
  /// then carries (MP4 and MOV `pasp`, Matroska's display size) and players apply.
  ///
  /// - Throws: ``VideoError`` when the stream cannot be added.
  func addEncodedStream(
    _ encoder: VideoEncoder, like source: UnsafeMutablePointer<AVStream>, sampleAspect: AVRational
  ) throws(VideoError) -> UnsafeMutablePointer<AVStream> {
    let stream = try newStream()
    try VideoError.check(
      avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context),
      "\(name): cannot describe the video stream")
    if stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_HEVC, writesISOMedia {
      // FFmpeg tags HEVC `hev1` unless asked; Apple's players refuse it and play `hvc1` (parameter
      // sets only in the sample entry, where the global header puts them).
      stream.pointee.codecpar.pointee.codec_tag = Self.tag("hvc1")
    }
    stream.pointee.time_base = encoder.context.pointee.time_base
    stream.pointee.avg_frame_rate = source.pointee.avg_frame_rate
    stream.pointee.r_frame_rate = source.pointee.r_frame_rate
    var aspect = encoder.context.pointee.sample_aspect_ratio
    if aspect.num <= 0 || aspect.den <= 0, sampleAspect.num > 0, sampleAspect.den > 0 {
      aspect = sampleAspect
      stream.pointee.codecpar.pointee.sample_aspect_ratio = aspect
    }
    stream.pointee.sample_aspect_ratio = aspect
    try copyDescription(of: source, to: stream, sideData: [AV_PKT_DATA_DISPLAYMATRIX])
    // The input's encoder name would now be wrong.
    av_dict_set(&stream.pointee.metadata, "encoder", nil, 0)
    return stream
  }

  /// True for the MP4 and MOV muxers.
  private var writesISOMedia: Bool {
    guard let raw = context.pointee.oformat.pointee.name else { return false }
    return ["mp4", "mov"].contains(String(cString: raw))
  }

  /// A four-character code as FFmpeg's `MKTAG` makes it (first character lowest).
  static func tag(_ code: String) -> UInt32 {
    code.utf8.prefix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// False when FFmpeg says the container `format` cannot hold `codec` (`avformat_query_codec`); true
  /// when it can or does not say (MPEG-TS).
  static func holds(_ codec: AVCodecID, in format: UnsafePointer<AVOutputFormat>) -> Bool {
    avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL) != 0
  }

  /// Refuses copying `source`, stream `index` of `inputName`, into a container that cannot hold it (PCM
  /// audio in MP4), naming the stream and the ways out: a container that holds it, or converting it.
  ///
  /// - Throws: ``VideoError`` naming this file, the stream and the ways out.
  func checkHolds(_ source: UnsafeMutablePointer<AVStream>, index: Int, of inputName: String)
    throws(VideoError)
  {
    let parameters = source.pointee.codecpar.pointee
    guard let format = context.pointee.oformat, !Self.holds(parameters.codec_id, in: format) else {
      return
    }
    let kind = av_get_media_type_string(parameters.codec_type).map { String(cString: $0) } ?? "?"
    let codec = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
    let muxer = format.pointee.name.map { String(cString: $0) } ?? "this"
    let container =
      ["matroska": "Matroska", "mpegts": "MPEG-TS", "mpeg": "MPEG-PS"][muxer]
      ?? muxer.uppercased()
    let others: [String] = [("mov", ".mov"), ("matroska", ".mkv")].compactMap { muxer, suffix in
      guard let other = av_guess_format(muxer, nil, nil),
        Self.holds(parameters.codec_id, in: other)
      else { return nil }
      return suffix
    }
    var ways = others.isEmpty ? [] : ["name a \(others.joined(separator: " or ")) output"]
    if parameters.codec_type == AVMEDIA_TYPE_AUDIO {
      ways.append(
        "convert the audio first (ffmpeg -i IN -map 0 -c copy -c:a aac IN-aac.mov, then "
          + "framedial video IN-aac.mov -o \(name))")
    } else {
      ways.append(
        "leave that stream out first (ffmpeg -i IN -map 0 -map -0:\(index) -c copy IN-without.mkv)")
    }
    throw VideoError(
      "\(name): the \(container) container cannot hold stream \(index) of \(inputName) "
        + "(\(kind) \(codec)), which is copied as it is: " + ways.joined(separator: ", or "))
  }

  /// Adds a stream whose packets are copied from `source` as they are (`-c copy`).
  ///
  /// - Throws: ``VideoError`` when the stream cannot be added.
  func addCopiedStream(like source: UnsafeMutablePointer<AVStream>) throws(VideoError)
    -> UnsafeMutablePointer<AVStream>
  {
    let stream = try newStream()
    try VideoError.check(
      avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar),
      "\(name): cannot describe a copied stream")
    // The input container's codec tag may mean nothing in the output's: let the muxer choose.
    stream.pointee.codecpar.pointee.codec_tag = 0
    stream.pointee.time_base = source.pointee.time_base
    try copyDescription(of: source, to: stream, sideData: nil)
    return stream
  }

  /// Copies the container's metadata (title, dates, location …) from `source`.
  func copyMetadata(from source: UnsafeMutablePointer<AVFormatContext>) {
    av_dict_copy(&context.pointee.metadata, source.pointee.metadata, 0)
  }

  /// Writes the header; the streams' time bases may change to the container's.
  ///
  /// - Throws: ``VideoError`` when the container cannot hold a stream (PCM in MP4, for example).
  func writeHeader() throws(VideoError) {
    try VideoError.check(
      avformat_write_header(context, nil),
      "\(name): cannot write its header (a stream this container cannot hold?)")
    headerWritten = true
  }

  /// Writes `packet`, whose timestamps count in `timeBase`, into stream `index` in interleaved order;
  /// the packet is consumed.
  ///
  /// - Throws: ``VideoError`` when writing fails.
  func write(_ packet: UnsafeMutablePointer<AVPacket>, from timeBase: AVRational, to index: Int)
    throws(VideoError)
  {
    guard let stream = context.pointee.streams[index] else {
      throw VideoError("\(name): no output stream \(index)")
    }
    packet.pointee.stream_index = Int32(index)
    av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
    packet.pointee.pos = -1
    try VideoError.check(av_interleaved_write_frame(context, packet), "\(name): cannot write")
  }

  /// Writes the trailer and closes the file.
  ///
  /// - Throws: ``VideoError`` when the end cannot be written.
  func finish() throws(VideoError) {
    guard headerWritten else { return }
    try VideoError.check(av_write_trailer(context), "\(name): cannot finish the file")
    if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
      try VideoError.check(avio_closep(&context.pointee.pb), "\(name): cannot be closed")
    }
  }

  private func newStream() throws(VideoError) -> UnsafeMutablePointer<AVStream> {
    guard let stream = avformat_new_stream(context, nil) else {
      throw VideoError("\(name): out of memory for a stream")
    }
    return stream
  }

  /// Copies metadata, disposition and side data (of `sideData`'s types, or all for nil).
  private func copyDescription(
    of source: UnsafeMutablePointer<AVStream>, to stream: UnsafeMutablePointer<AVStream>,
    sideData: [AVPacketSideDataType]?
  ) throws(VideoError) {
    av_dict_copy(&stream.pointee.metadata, source.pointee.metadata, 0)
    stream.pointee.disposition = source.pointee.disposition
    for index in 0..<Int(source.pointee.nb_side_data) {
      let item = source.pointee.side_data[index]
      guard sideData?.contains(item.type) ?? true, let data = item.data else { continue }
      guard let copy = av_stream_new_side_data(stream, item.type, item.size) else {
        throw VideoError("\(name): out of memory for stream side data")
      }
      copy.update(from: data, count: item.size)
    }
  }
}
