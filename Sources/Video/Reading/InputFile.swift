import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// An open media file being demuxed: its streams, the video stream chosen, and packets read in order.
final class InputFile {
  /// The file's path, for messages.
  let path: String
  /// FFmpeg's demuxer context (owned).
  let context: UnsafeMutablePointer<AVFormatContext>
  /// The index of the video stream that is processed.
  let videoIndex: Int

  /// Opens `path` and reads its stream information. When FFmpeg's first look (its default probe of 5
  /// MB and 5 s) finds no pixel format for the video, because the file holds more than that of other
  /// streams before the video's first packet (audio muxed first), a second look goes as far into the
  /// file as the video's first frames, keeping nothing it reads, and gives the video stream what it
  /// found (its codec parameters and rates); reading starts at the beginning as usual.
  ///
  /// With a `pixelLimit`, a file whose container says a video stream's frames are larger is refused
  /// before FFmpeg's look, which decodes frames of every stream.
  ///
  /// - Throws: ``VideoError`` naming the file when it is not a regular file (a FIFO or a device, which
  ///   FFmpeg would wait on), cannot be opened, is not a media file, says its video is over the pixel
  ///   limit, or has no video stream.
  init(path: String, pixelLimit: Int? = nil) throws(VideoError) {
    self.path = path
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
      throw VideoError("\(path): not a regular file")
    }
    (context, videoIndex) = try Self.open(path, probing: nil, pixelLimit: pixelLimit)
    // Only for a codec FFmpeg decodes here (one without a decoder is refused anyway) and a size
    // within the limit (a larger one is refused anyway, unread).
    let parameters = videoStream.pointee.codecpar.pointee
    let pixels = Int64(parameters.width) * Int64(parameters.height)
    if parameters.format < 0, avcodec_find_decoder(parameters.codec_id) != nil,
      pixelLimit.map({ pixels <= $0 }) ?? true,
      let (far, farIndex) = Self.openedOrNil(
        path, probing: max(Int64(status.st_size), 5_000_000), pixelLimit: pixelLimit)
    {
      var owned: UnsafeMutablePointer<AVFormatContext>? = far
      defer { avformat_close_input(&owned) }
      if farIndex == videoIndex, far.pointee.nb_streams == context.pointee.nb_streams,
        let found = far.pointee.streams[farIndex]
      {
        Self.adopt(found, into: videoStream)
      }
    }
  }

  /// ``open(_:probing:pixelLimit:)``, or nil when it fails (the first look's findings stand).
  private static func openedOrNil(_ path: String, probing: Int64, pixelLimit: Int?) -> (
    UnsafeMutablePointer<AVFormatContext>, Int
  )? {
    try? open(path, probing: probing, pixelLimit: pixelLimit)
  }

  /// Gives `stream` what a further look found of the same stream, `found`: its codec parameters
  /// (when it found a pixel format for the same codec) and frame rates. Not its start time: a look
  /// that keeps no packet may set it past the first frame; the first look's (from the other streams
  /// when it saw no video) stands.
  private static func adopt(
    _ found: UnsafeMutablePointer<AVStream>, into stream: UnsafeMutablePointer<AVStream>
  ) {
    let parameters = found.pointee.codecpar.pointee
    guard parameters.format >= 0, parameters.codec_id == stream.pointee.codecpar.pointee.codec_id,
      avcodec_parameters_copy(stream.pointee.codecpar, found.pointee.codecpar) >= 0
    else { return }
    stream.pointee.avg_frame_rate = found.pointee.avg_frame_rate
    stream.pointee.r_frame_rate = found.pointee.r_frame_rate
  }

  /// Opens `path` as FFmpeg's local file and reads its stream information: with FFmpeg's default probe,
  /// or as far as `probing` bytes keeping none of the packets looked at (such a context is only looked
  /// at, not read). A video stream over `pixelLimit` pixels as the container says is refused before
  /// the look. Returns the context and the index of the video stream.
  private static func open(_ path: String, probing: Int64?, pixelLimit: Int?) throws(VideoError)
    -> (
      UnsafeMutablePointer<AVFormatContext>, Int
    )
  {
    var opened: UnsafeMutablePointer<AVFormatContext>?
    // Always a local file: a name such as "pipe:0" or "http://…" is a file name, never a protocol, and a
    // playlist inside the file (HLS, concat) may reach only files, never the network.
    var options: OpaquePointer?
    av_dict_set(&options, "protocol_whitelist", "file", 0)
    if let probing {
      av_dict_set(&options, "probesize", String(probing), 0)
      // Microseconds: as far into the file as the bytes go.
      av_dict_set(&options, "analyzeduration", String(Int64.max / 2), 0)
    }
    defer { av_dict_free(&options) }
    try VideoError.check(
      avformat_open_input(&opened, "file:" + path, nil, &options),
      "\(path): cannot be read as video")
    guard let context = opened else { throw VideoError("\(path): cannot be read as video") }
    // Packets looked at far into the file are not kept: memory stays bounded however far in the
    // video begins.
    if probing != nil { context.pointee.flags |= AVFMT_FLAG_NOBUFFER }
    if let problem = oversizedVideo(in: context, pixelLimit: pixelLimit) {
      avformat_close_input(&opened)
      throw VideoError("\(path): \(problem)")
    }
    let found = avformat_find_stream_info(context, nil)
    context.pointee.flags &= ~AVFMT_FLAG_NOBUFFER
    guard found >= 0 else {
      avformat_close_input(&opened)
      throw VideoError("\(path): cannot read its streams: \(VideoError.reason(found))")
    }
    let best = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
    guard best >= 0 else {
      avformat_close_input(&opened)
      throw VideoError("\(path): has no video stream")
    }
    return (context, Int(best))
  }

  deinit {
    var owned: UnsafeMutablePointer<AVFormatContext>? = context
    avformat_close_input(&owned)
  }

  /// Every stream of the file, in order.
  var streams: [UnsafeMutablePointer<AVStream>] {
    (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
  }

  /// The video stream processed.
  var videoStream: UnsafeMutablePointer<AVStream> { streams[videoIndex] }

  /// Reads the next packet into `packet` (unreferenced first); false at the end of the file.
  ///
  /// - Throws: ``VideoError`` when reading fails for another reason than the end.
  func read(into packet: UnsafeMutablePointer<AVPacket>) throws(VideoError) -> Bool {
    av_packet_unref(packet)
    let result = av_read_frame(context, packet)
    if result == fd_averror_eof() { return false }
    try VideoError.check(result, "\(path): cannot read a packet")
    return true
  }

  /// The rotation the video stream's display matrix asks for, in degrees counter-clockwise (as
  /// `av_display_rotation_get` gives it), or nil without a display matrix.
  var rotation: Double? {
    var size: Int = 0
    guard let matrix = av_stream_get_side_data(videoStream, AV_PKT_DATA_DISPLAYMATRIX, &size),
      size >= 9 * MemoryLayout<Int32>.size
    else { return nil }
    let degrees = matrix.withMemoryRebound(to: Int32.self, capacity: 9) {
      av_display_rotation_get($0)
    }
    return degrees.isFinite ? degrees : nil
  }
}

extension InputFile {
  /// Why a video stream of `context` (not a cover picture) is over `pixelLimit` pixels by the size
  /// its container gives, or nil.
  private static func oversizedVideo(
    in context: UnsafeMutablePointer<AVFormatContext>, pixelLimit: Int?
  ) -> String? {
    for index in 0..<Int(context.pointee.nb_streams) {
      guard let stream = context.pointee.streams[index],
        stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
      else { continue }
      let parameters = stream.pointee.codecpar.pointee
      guard parameters.codec_type == AVMEDIA_TYPE_VIDEO,
        let problem = PixelLimit.problem(
          width: Double(parameters.width), height: Double(parameters.height), limit: pixelLimit,
          what: "its video is \(parameters.width)×\(parameters.height)")
      else { continue }
      return problem
    }
    return nil
  }

  /// Moves reading to the video stream's key frame at or before `timestamp` (in the video stream's
  /// time base), so that decoding from there reaches the frame at `timestamp` whole.
  ///
  /// - Throws: ``VideoError`` when the file cannot seek.
  func seekVideo(before timestamp: Int64) throws(VideoError) {
    try VideoError.check(
      avformat_seek_file(context, Int32(videoIndex), Int64.min, timestamp, timestamp, 0),
      "\(path): cannot seek in the file")
  }

  /// Moves reading back to the start of the file, to play it again: to time 0 or before across every
  /// stream (MPEG-TS needs that: a seek to its video's first timestamp lands past the first key
  /// frame), else, for formats that seek one stream only (Y4M), to the video stream's key frame at or
  /// before its first timestamp.
  ///
  /// - Throws: ``VideoError`` when the file cannot seek.
  func rewind() throws(VideoError) {
    guard avformat_seek_file(context, -1, Int64.min, 0, 0, 0) < 0 else { return }
    let start = videoStream.pointee.start_time
    try seekVideo(before: start == fd_no_pts() ? 0 : start)
  }
}
