import CFFmpeg
import HEIF

/// FFmpeg's HEVC decoder (libavcodec) as the ``HEVCPictureDecoder`` libheif decodes HEIC pictures with,
/// in place of its own libde265 plugin (registered by the `framedial` command when it starts).
///
/// Each call decodes one picture on a decoder of its own: the length-prefixed NAL units libheif gives
/// become an Annex B packet (each 4-byte length replaced by a start code), the decoder is flushed, and
/// the one frame it returns is handed over as planes — 8 to 16 bits, 4:2:0, 4:2:2, 4:4:4 or
/// monochrome, with the colour description of the stream's VUI. Nothing is shared between calls, so
/// libheif may decode a grid's tiles on several threads at once.
public struct HEVCStillDecoder: HEVCPictureDecoder {
  /// Threads FFmpeg decodes one picture with (slice threads: the rows of a picture coded with
  /// wavefront parallel processing, as x265 codes by default, are decoded side by side).
  public let threads: Int

  /// A decoder using `threads` threads a picture (at least 1).
  public init(threads: Int = 1) {
    self.threads = max(1, threads)
  }

  /// The decoder's description for libheif's list of decoders, with libavcodec's version.
  public static var name: String {
    let version = avcodec_version()
    return
      "FFmpeg HEVC decoder, libavcodec \(version >> 16).\((version >> 8) & 0xff).\(version & 0xff)"
  }

  /// Registers this decoder with libheif (``HEIF/HEVCDecoderPlugin/register(_:name:)``) and keeps the
  /// lines FFmpeg's decoder logs for the decode they belong to (``captureDecoderLines()``).
  ///
  /// - Throws: ``HEIF/HEIFError`` when libheif refuses the plugin.
  public func register() throws {
    Self.captureDecoderLines()
    try HEVCDecoderPlugin.register(self, name: Self.name)
  }

  /// Makes FFmpeg's log callback one that prints lines as FFmpeg's own callback does, except those the
  /// HEVC decoder logs while it decodes a HEIC picture: each decode keeps its own, and its errors make
  /// the picture damaged. ``FFmpegLog/route(prefix:)`` installs a callback that keeps them too, so
  /// call this before routing, or not at all where lines are routed.
  public static func captureDecoderLines() {
    fd_log_capture_unrouted()
  }

  /// Decodes one picture. Every error FFmpeg's decoder notices — a value out of range, a slice it
  /// cannot parse, a picture hash that does not match — makes the picture damaged: with `strict`, the
  /// decoder stops at the first (`AV_EF_EXPLODE`) and the call throws ``VideoError`` with the decoder's
  /// own words; without, the picture it could decode is returned with ``HEIF/HEVCPicture/damage``
  /// set. The decoder's log lines are kept for this decode, never printed, where
  /// ``captureDecoderLines()`` or ``FFmpegLog/route(prefix:)`` set FFmpeg's log callback (elsewhere
  /// they are silenced, and only FFmpeg's error code gives the reason).
  public func decodePicture<Result>(
    _ nalUnits: UnsafeRawBufferPointer, strict: Bool, _ body: (HEVCPicture) throws -> Result
  ) throws -> Result {
    guard let codec = avcodec_find_decoder(AV_CODEC_ID_HEVC) else {
      throw VideoError("FFmpeg here has no HEVC decoder")
    }
    // Freed last: the decoder may log until its context is freed.
    let log = UnsafeMutablePointer<fd_decode_log>.allocate(capacity: 1)
    defer { log.deallocate() }
    var context = avcodec_alloc_context3(codec)
    defer { avcodec_free_context(&context) }
    guard let context else { throw VideoError("out of memory for an HEVC decoder") }
    fd_decode_log_attach(context, log)
    context.pointee.thread_count = Int32(threads)
    context.pointee.thread_type = FF_THREAD_SLICE
    if strict { context.pointee.err_recognition |= AV_EF_EXPLODE | AV_EF_CRCCHECK }
    try VideoError.check(avcodec_open2(context, codec, nil), "cannot open FFmpeg's HEVC decoder")
    let buffers = try DecodeBuffers(for: "an HEVC picture")
    defer { buffers.free() }
    try Self.annexB(nalUnits, into: buffers.packet, refusingForbiddenBytes: strict)
    let sent = avcodec_send_packet(context, buffers.packet)
    let flushed = sent < 0 ? sent : avcodec_send_packet(context, nil)
    let received =
      flushed < 0 && flushed != fd_averror_eof()
      ? flushed : avcodec_receive_frame(context, buffers.frame)
    let damage = Self.damage(log).map {
      "FFmpeg's HEVC decoder: \($0)"
    }
    if let damage, strict || received < 0 { throw VideoError(damage) }
    guard received != fd_averror_eof(), received != fd_averror_again() else {
      throw VideoError("FFmpeg's HEVC decoder found no picture in the HEVC data")
    }
    try VideoError.check(received, "FFmpeg's HEVC decoder cannot decode the picture")
    var picture = try Self.picture(buffers.frame)
    if let damage { picture.damage = damage }
    return try body(picture)
  }

  /// The errors the decoder logged, as one reason: the first one's text, and how many followed; nil
  /// when it logged none.
  static func damage(_ log: UnsafePointer<fd_decode_log>) -> String? {
    let errors = Int(fd_decode_log_errors(log))
    guard errors > 0 else { return nil }
    let first = fd_decode_log_first_error(log).map { String(cString: $0) } ?? "an error"
    return errors == 1 ? first : "\(first) (and \(errors - 1) more error\(errors > 2 ? "s" : ""))"
  }

  /// Copies `nalUnits` (each after its length as 4 big-endian bytes) into `packet` as an Annex B byte
  /// stream, each length replaced by the start code 00 00 00 01.
  ///
  /// - Throws: ``VideoError`` when a length runs past the end of the data, there is no NAL unit, or,
  ///   with `refusingForbiddenBytes`, a NAL unit holds bytes none may hold (see
  ///   ``forbiddenBytes(in:)``; without it such a unit goes to the decoder, which conceals what it
  ///   cannot decode).
  static func annexB(
    _ nalUnits: UnsafeRawBufferPointer, into packet: UnsafeMutablePointer<AVPacket>,
    refusingForbiddenBytes: Bool = true
  )
    throws
  {
    guard !nalUnits.isEmpty, nalUnits.count <= Int(Int32.max) else {
      throw VideoError("the HEVC data is empty or too large (\(nalUnits.count) bytes)")
    }
    try VideoError.check(
      av_new_packet(packet, Int32(nalUnits.count)), "out of memory for the HEVC data")
    guard let target = packet.pointee.data else {
      throw VideoError("out of memory for the HEVC data")
    }
    var offset = 0
    while offset < nalUnits.count {
      guard nalUnits.count - offset >= 4 else {
        throw VideoError(
          "the HEVC data is cut short: \(nalUnits.count - offset) bytes after the last NAL unit")
      }
      let length = nalUnits[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      guard length <= nalUnits.count - offset - 4 else {
        throw VideoError(
          "the HEVC data is cut short: a NAL unit of \(length) bytes where \(nalUnits.count - offset - 4) remain"
        )
      }
      let unit = UnsafeRawBufferPointer(rebasing: nalUnits[offset + 4..<offset + 4 + length])
      if refusingForbiddenBytes, let problem = forbiddenBytes(in: unit) {
        throw VideoError("a NAL unit of the HEVC data \(problem)")
      }
      (target + offset).initialize(from: [0, 0, 0, 1], count: 4)
      if length > 0, let start = nalUnits.baseAddress {
        (target + offset + 4).initialize(
          from: start.advanced(by: offset + 4).assumingMemoryBound(to: UInt8.self), count: length)
      }
      offset += 4 + length
    }
  }

  /// What is wrong with `unit`, one NAL unit, when it holds bytes HEVC forbids in every NAL unit
  /// (ITU-T H.265 7.4.2.2): 00 00 00, 00 00 01 or 00 00 02 anywhere (its encoder inserts 03 to prevent
  /// them), or 00 as its last byte. A block of zeros written over coded data, or a byte flipped next to
  /// a zero, makes them; in an Annex B stream they would also end the NAL unit early. Nil when there
  /// are none.
  static func forbiddenBytes(in unit: UnsafeRawBufferPointer) -> String? {
    guard let last = unit.last else { return nil }
    if last == 0 { return "ends in a zero byte" }
    var index = 0
    while index + 2 < unit.count {
      if unit[index + 1] != 0 {
        index += 2  // neither byte pair here can start a forbidden sequence at index or index + 1
      } else if unit[index] == 0 && unit[index + 2] <= 2 {
        return "holds the bytes 00 00 0\(unit[index + 2]) at its byte \(index)"
      } else {
        index += 1
      }
    }
    return nil
  }

  /// The decoded `frame` as an ``HEVCPicture`` whose planes point into the frame.
  ///
  /// - Throws: ``VideoError`` for a sample layout a HEIC picture cannot have.
  static func picture(_ frame: UnsafeMutablePointer<AVFrame>) throws -> HEVCPicture {
    let format = AVPixelFormat(rawValue: frame.pointee.format)
    let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "\(frame.pointee.format)"
    guard let descriptor = av_pix_fmt_desc_get(format) else {
      throw VideoError("FFmpeg's HEVC decoder returned samples in an unknown layout (\(name))")
    }
    let refused =
      UInt64(AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_HWACCEL)
      | UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_FLOAT)
    let components = Int(descriptor.pointee.nb_components)
    let depth = Int(descriptor.pointee.comp.0.depth)
    let depths = [descriptor.pointee.comp.0, descriptor.pointee.comp.1, descriptor.pointee.comp.2]
      .prefix(components).map { Int($0.depth) }
    let chroma: HEVCPicture.Chroma?
    switch (components, descriptor.pointee.log2_chroma_w, descriptor.pointee.log2_chroma_h) {
    case (1, _, _): chroma = .monochrome
    case (3, 1, 1): chroma = .yuv420
    case (3, 1, 0): chroma = .yuv422
    case (3, 0, 0): chroma = .yuv444
    default: chroma = nil
    }
    guard let chroma, descriptor.pointee.flags & refused == 0, (1...16).contains(depth),
      depths.allSatisfy({ $0 == depth })
    else {
      throw VideoError(
        "FFmpeg's HEVC decoder returned \(name) samples, which a HEIC picture cannot hold")
    }
    let width = Int(frame.pointee.width)
    let height = Int(frame.pointee.height)
    let shift = (x: Int(descriptor.pointee.log2_chroma_w), y: Int(descriptor.pointee.log2_chroma_h))
    let data = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
    let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2]
    var planes: [HEVCPicture.Plane] = []
    for index in 0..<components {
      guard let base = data[index], strides[index] > 0 else {
        throw VideoError("FFmpeg's HEVC decoder returned a picture without plane \(index)")
      }
      let (planeWidth, planeHeight) =
        index == 0
        ? (width, height) : ((width + shift.x) >> shift.x, (height + shift.y) >> shift.y)
      planes.append(
        HEVCPicture.Plane(
          base: UnsafeRawPointer(base), rowStride: Int(strides[index]), width: planeWidth,
          height: planeHeight))
    }
    let damaged =
      frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0
    return HEVCPicture(
      width: width, height: height, chroma: chroma, bitDepth: depth, planes: planes,
      colour: HEVCColour(
        primaries: UInt16(truncatingIfNeeded: frame.pointee.color_primaries.rawValue),
        transfer: UInt16(truncatingIfNeeded: frame.pointee.color_trc.rawValue),
        matrix: UInt16(truncatingIfNeeded: frame.pointee.colorspace.rawValue),
        fullRange: frame.pointee.color_range == AVCOL_RANGE_JPEG),
      damage: damaged ? "FFmpeg's HEVC decoder found the picture damaged" : nil)
  }
}
