import Vips

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `framedial frames --size WxH`: raw video frames from standard input through the controls to standard
/// output, for ffmpeg pipes.
enum FramesCommand: Command {
  static let name = "frames"
  static let summary =
    "Render raw video frames (rgb24, rgba, bgra, rgb48le, rgba64le) from standard input to standard "
    + "output, for ffmpeg pipes."
  static let usage =
    "frames --size WxH [--pix-fmt rgb24|rgba|bgra|rgb48le|rgba64le] [--state FILE.json]… "
    + "[--set KEY=VALUE]… [--timeline FILE.jsonl --fps R] [--stats] [--threads N]"
  static let parser = ArgumentParser(
    options: [
      .value(
        "size", short: "s", "WxH", "frame width and height in pixels, e.g. 1920x1080 (required)"),
      .value(
        "pix-fmt", "FORMAT",
        "rgb24 (default), rgba or bgra (8-bit); rgb48le or rgba64le (16-bit): packed, ffmpeg's names"
      ),
      .value(
        "timeline", "FILE.jsonl",
        "control events (JSON Lines); frame k takes the events at or before k / fps"),
      .value("fps", "R", "frame rate placing frames on the timeline: 25, 29.97 or 30000/1001"),
      .flag("stats", "print frames, frames per second and p50/p99 render ms to standard error"),
      .value("threads", "N", "libvips worker threads per frame (default: one per core)"),
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let options = try FramesOptions(arguments)
    if let threads = options.threads { try Vips.setThreads(threads) }
    for descriptor in [STDIN_FILENO, STDOUT_FILENO] {
      enlargePipeBuffer(descriptor, to: min(options.frameBytes, 1 << 20))
    }
    var stats = FrameStats()
    defer { if options.stats { console.err(stats.summary()) } }
    try FramePump(
      options: options, reader: RawFrameReader(descriptor: STDIN_FILENO),
      writer: RawFrameWriter(descriptor: STDOUT_FILENO)
    ).run(stats: &stats)
    return ExitCode.success
  }
}
