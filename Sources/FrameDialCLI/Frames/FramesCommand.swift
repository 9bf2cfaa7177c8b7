import Vips

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `framedial frames --size WxH` or `framedial frames --y4m`: raw video frames (packed RGB or YUV 4:2:0
/// planes, bare or as a YUV4MPEG2 stream) from standard input through the controls to standard output,
/// for ffmpeg pipes.
enum FramesCommand: Command {
  static let name = "frames"
  static let summary =
    "Render raw video frames (rgb24, rgba, bgra, rgb48le, rgba64le, yuv420p, yuv420p10le, or a "
    + "YUV4MPEG2 stream) from standard input to standard output, for ffmpeg pipes."
  static let usage =
    "frames (--size WxH [--pix-fmt rgb24|rgba|bgra|rgb48le|rgba64le|yuv420p|yuv420p10le] | --y4m) "
    + "[--colour-matrix bt709|bt601|bt2020] [--range tv|pc] [--transfer bt709|hlg|pq] "
    + "[--primaries bt709|bt2020] [--state FILE.json]… "
    + "[--set KEY=VALUE]… [--timeline FILE.jsonl --fps R] [--stats] [--threads N]"
  static let parser = ArgumentParser(
    options: [
      .value(
        "size", short: "s", "WxH", "frame width and height in pixels, e.g. 1920x1080 (required)"),
      .value(
        "pix-fmt", "FORMAT",
        "rgb24 (default), rgba or bgra (8-bit); rgb48le or rgba64le (16-bit): packed; yuv420p or "
          + "yuv420p10le: planar 4:2:0 (ffmpeg's names)"),
      .flag(
        "y4m",
        "read and write a YUV4MPEG2 stream (ffmpeg -f yuv4mpegpipe): size, 4:2:0 depth, range "
          + "and rate from its header"),
      .value(
        "colour-matrix", "bt709|bt601|bt2020",
        "YUV frames: the matrix (default: BT.2020 with --primaries bt2020, else BT.601 below 720 "
          + "lines, BT.709 at or above)"),
      .value("range", "tv|pc", "YUV frames: the code range (default: tv, or the y4m header's)"),
      .value(
        "transfer", "bt709|hlg|pq",
        "the frames' transfer (default: bt709, rendered as sRGB); hlg and pq need 10 bits or more"),
      .value(
        "primaries", "bt709|bt2020", "the frames' primaries (default: bt709; HDR video is bt2020)"),
      .value(
        "timeline", "FILE.jsonl",
        "control events (JSON Lines); frame k takes the events at or before k / fps"),
      .value("fps", "R", "frame rate placing frames on the timeline: 25, 29.97 or 30000/1001"),
      .flag("stats", "print frames, frames per second and p50/p99 render ms to standard error"),
      .value("threads", "N", "libvips worker threads per frame (default: one per core)"),
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    var options = try FramesOptions(arguments)
    if let threads = options.threads { try Vips.setThreads(threads) }
    let (reader, writer) = (
      RawFrameReader(descriptor: STDIN_FILENO), RawFrameWriter(descriptor: STDOUT_FILENO)
    )
    if options.y4m {
      guard let line = try reader.line(frame: 1) else {
        throw FramesError.badY4M("standard input is empty: no YUV4MPEG2 header")
      }
      let header = try Y4MHeader(parsing: line)
      try options.adopt(header)
      try writer.write(Array((header.line + "\n").utf8), frame: 1)
    }
    for descriptor in [STDIN_FILENO, STDOUT_FILENO] {
      enlargePipeBuffer(descriptor, to: min(options.frameBytes, 1 << 20))
    }
    var stats = FrameStats()
    defer { if options.stats { console.err(stats.summary()) } }
    try FramePump(options: options, reader: reader, writer: writer).run(stats: &stats)
    return ExitCode.success
  }
}
