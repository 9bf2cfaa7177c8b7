import CFFmpeg

/// Reads back a video file just written and decodes its first frames, so that a file no player can
/// decode is a failure and never a success: a container that stores the codec under no tag (FFmpeg
/// 5.1's AVI muxer writes HEVC so, read back as raw video), a muxer that relabels the stream (AVC-Intra
/// `ai13` for 1080p 4:2:2 10-bit H.264 in MOV), lost parameter sets.
enum WrittenVideoCheck {
  /// How many frames from the start are decoded (all of them in a shorter video).
  static let framesChecked = 16

  /// Opens `path` (named `name` in messages), finds its video stream and decodes its first
  /// ``framesChecked`` packets, of the `framesWritten` frames written as `codec`.
  ///
  /// - Throws: ``VideoError`` naming `name` when the file cannot be read back, its video stream reads
  ///   as another codec, a packet or frame does not decode, a frame is marked corrupt, or fewer frames
  ///   come out than packets went in.
  static func check(path: String, name: String, codec: VideoCodec, framesWritten: Int)
    throws(VideoError)
  {
    let failure = "\(name): the video written does not play back"
    /// The reason of an error about `path`, without the temporary's name.
    func reason(_ error: VideoError) -> String {
      let prefix = path + ": "
      return error.message.hasPrefix(prefix)
        ? String(error.message.dropFirst(prefix.count)) : error.message
    }
    let file: InputFile
    do { file = try InputFile(path: path) } catch {
      throw VideoError("\(failure): \(reason(error))")
    }
    let parameters = file.videoStream.pointee.codecpar.pointee
    let expected = codec == .h264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_HEVC
    guard parameters.codec_id == expected else {
      let found = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
      throw VideoError(
        "\(failure): FFmpeg reads its video back as \(found), not \(codec.rawValue) (this "
          + "container does not carry \(codec.rawValue) here): name an .mp4, .mov or .mkv output")
    }
    let decoder: VideoDecoder
    do {
      decoder = try VideoDecoder(stream: file.videoStream, path: path)
    } catch { throw VideoError("\(failure): \(reason(error))") }
    let buffers = try DecodeBuffers(for: "checking \(name)")
    defer { buffers.free() }
    let (packet, frame) = (buffers.packet, buffers.frame)
    let wanted = min(framesChecked, framesWritten)
    var (sent, decoded) = (0, 0)
    do {
      func drain() throws(VideoError) {
        while try decoder.receive(into: frame) {
          defer { av_frame_unref(frame) }
          guard frame.pointee.flags & AV_FRAME_FLAG_CORRUPT == 0,
            frame.pointee.decode_error_flags == 0
          else {
            throw VideoError("frame \(decoded + 1) decodes corrupt")
          }
          decoded += 1
        }
      }
      while sent < wanted, try file.read(into: packet) {
        guard Int(packet.pointee.stream_index) == file.videoIndex else { continue }
        try decoder.send(packet)
        sent += 1
        try drain()
      }
      try decoder.send(nil)
      try drain()
    } catch {
      throw VideoError("\(failure): \(reason(error))")
    }
    guard sent == wanted, decoded == sent else {
      throw VideoError(
        "\(failure): FFmpeg decodes \(decoded) of its first \(wanted) frames "
          + "(\(sent) read back)")
    }
  }
}
