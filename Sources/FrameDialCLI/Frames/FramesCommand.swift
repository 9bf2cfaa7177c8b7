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
    "Render raw video frames (\(FramesOptions.formatNames.joined(separator: ", ")), or a "
    + "YUV4MPEG2 stream) from standard input to standard output, for ffmpeg pipes."
  static let synopsis = Usage(
    [
      .oneOf(
        [.option(FramesOptions.size), .optional(FramesOptions.pixelFormat)],
        [.option(FramesOptions.y4m)]),
      .optional(FramesOptions.matrix), .optional(FramesOptions.range),
      .optional(FramesOptions.transfer), .optional(FramesOptions.primaries),
    ] + StateOptions.usage + [
      .optional(.option(FramesOptions.timeline), .option(FramesOptions.fps))
    ])
  static let parser = ArgumentParser(
    options: [
      FramesOptions.size, FramesOptions.pixelFormat, FramesOptions.y4m, FramesOptions.matrix,
      FramesOptions.range, FramesOptions.transfer, FramesOptions.primaries, FramesOptions.timeline,
      FramesOptions.fps, FramesOptions.stats, FramesOptions.threads,
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
