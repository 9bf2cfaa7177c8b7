import Controls
import FrameDial
import RowKernels
import Video
import Vips

/// `framedial video IN -o OUT`: a video file through the controls, frame by frame, on FFmpeg's libraries;
/// audio and subtitles copied, the output written atomically.
enum VideoCommand: ExitingAtOnceCommand {
  static let name = "video"
  static let summary =
    "Render a video file with the control values (frame times, colour tags, rotation and audio kept)."
  static let usage =
    "video IN -o OUT [--state FILE.json]… [--set KEY=VALUE]… [--timeline FILE.jsonl] [--crf N] "
    + "[--encoder-preset P] [--codec h264|hevc] [--hdr keep|sdr] [--start T] [--duration D] "
    + "[--fail-on LEVEL] [--json] | "
    + "video IN --frame-at T -o STILL.png [--effort E] [--fail-on LEVEL] [state options]"
  static let parser = ArgumentParser(
    options: [
      .value(
        "output", short: "o", "OUT",
        "the video to write: .mp4, .mov, .mkv … (its folder is created if missing)"),
      .value(
        "timeline", "FILE.jsonl",
        "control events (JSON Lines); each frame takes the events at or before its own time"),
      .value("crf", "N", "constant rate factor 0 … 51, lower is better (default 18)"),
      .value(
        "encoder-preset", "P",
        "x264/x265 speed preset: ultrafast … medium (default) … veryslow"),
      .value(
        "codec", "CODEC",
        "h264 (libx264, 8-bit 4:2:0) or hevc (libx265, 4:2:0, 10-bit Main 10 for input deeper "
          + "than 8 bits, tagged hvc1); default: hevc for HEVC or 10-bit (and deeper) input, "
          + "else h264"),
      .value(
        "hdr", "keep|sdr",
        "HDR (HLG, PQ) input: keep it HDR, HEVC Main 10 tagged in stream and container (default), "
          + "or tone-map it to SDR BT.709 8-bit; --frame-at stills of HDR are always sdr"),
      .value(
        "start", "T",
        "start at T (seconds, or HH:MM:SS.ms); the output's times start at 0; audio and subtitles "
          + "are cut at packet boundaries"),
      .value("duration", "D", "keep D (seconds, or HH:MM:SS.ms) from the start"),
      .value(
        "frame-at", "T",
        "write only the frame shown at T, processed, as a still (-o still.png, .jpg …), upright "
          + "and with square pixels"),
      EffortOption.option,
      .value(
        "pixel-limit", "PIXELS",
        "refuse larger frames, as decoded or, for --frame-at, as shown (default 100000000)"),
      FailOnOption.option,
      .flag(
        "json", "progress as JSON objects on standard output, one per line, and a done event"),
      OverwriteOption.option,
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let (input, output) = try arguments.singleInputAndOutput(command: name, outputHint: "OUT.mp4")
    guard input != StandardStreams.dash, output != StandardStreams.dash else {
      throw UsageError("video reads and writes files, not standard input or output")
    }
    let state = try StateOptions.state(from: arguments)
    let settings = try VideoOptions.settings(from: arguments)
    let span = try VideoOptions.span(from: arguments)
    let frameAt = try VideoOptions.seconds(of: "frame-at", in: arguments)
    let pixelLimit = try PixelLimitOption.limit(from: arguments)
    let failOn = try VideoOptions.failOn(from: arguments)
    if frameAt != nil {
      guard span.isWhole else {
        throw UsageError("--frame-at writes one frame: --start and --duration do not apply")
      }
      guard ImageFormat(path: output) != nil else {
        throw UsageError(
          "--frame-at writes a still: name a .png, .jpg, .webp, .tif or .heic output, not '\(output)'"
        )
      }
    } else if arguments.value("effort") != nil {
      throw UsageError(
        "--effort sets the encoder of a --frame-at HEIC still; a video's is --encoder-preset")
    }
    let effort = try EffortOption.effort(from: arguments) ?? .standard
    if frameAt == nil, let problem = VideoTranscoder.containerProblem(outputName: output) {
      throw UsageError("\(output): \(problem)")
    }
    let timeline = try arguments.value("timeline").map(FramesOptions.timeline(at:))
    // The same check stills make: the input by path, link or hard link, or a FIFO or device, is refused;
    // an existing output only with --overwrite.
    try OverwriteOption.check(output, input: input, arguments)
    FFmpegLog.route(prefix: "framedial \(name)")
    let transcoder = try VideoTranscoder(path: input, pixelLimit: pixelLimit, failOn: failOn)
    transcoder.planarConversion = VideoPlanarConversion.make
    let source = transcoder.source
    guard !source.isStillImage(path: input) else {
      throw RenderError(
        "\(input): a still image (\(source.codecName)), not a video; "
          + "render stills with framedial apply IN -o OUT")
    }
    try VideoOptions.check(span: span, frameAt: frameAt, of: source, input: input)
    if frameAt == nil, let problem = transcoder.hdrProblem(for: settings) {
      throw UsageError("\(input): \(problem)")
    }
    if frameAt != nil, source.dynamicRange.isHDR,
      try VideoOptions.hdrOutput(from: arguments) == .keep
    {
      throw UsageError(
        "--frame-at writes an 8-bit still, which cannot hold HDR: stills of HDR video are "
          + "tone-mapped to SDR (--hdr sdr, the default for --frame-at)")
    }
    let codec = transcoder.codec(for: settings)
    guard frameAt != nil || VideoTranscoder.isAvailable(codec) else {
      throw RenderError(
        "\(codec.encoderName) is not available in this FFmpeg: choose --codec "
          + VideoCodec.allCases.filter(VideoTranscoder.isAvailable).map(\.rawValue)
          .joined(separator: " or "))
    }
    if frameAt == nil {
      for stream in transcoder.skippedStreams(outputName: output) {
        console.err("framedial \(name): warning: \(input): \(stream) is not copied")
      }
      if let rotation = source.rotation, rotation != 0,
        !VideoTranscoder.keepsRotation(outputName: output)
      {
        console.err(
          "framedial \(name): warning: \(input) is rotated (\(VideoOptions.degreesText(rotation))) "
            + "but \(output) is Matroska, which keeps no rotation here (FFmpeg 5.1): it will play "
            + "unrotated; write .mp4 or .mov to keep it")
      }
    }
    try AtomicFile.prepareFolder(of: output)
    let live = LiveControlState(state)
    if let loss = transcoder.depthLoss(for: settings) {
      console.err("framedial \(name): warning: \(loss)")
    }
    var notes: [String] = []
    if frameAt == nil,
      let note = VideoOptions.dolbyVisionNote(source, input: input, settings: settings)
    {
      notes.append(note)
      console.err("framedial \(name): note: \(note)")
    }
    // Video deeper than 8 bits is rendered on 16-bit RGB, so its levels survive; a still is 8-bit,
    // except one of HDR video, rendered on its HDR codes before it is tone-mapped. HDR frames are
    // rendered in their BT.2100 encoding.
    let hdr = source.dynamicRange.isHDR
    let renderer = try FrameRenderer(
      width: source.width, height: source.height,
      pixelFormat: (frameAt == nil || hdr) && transcoder.rgbSampleBytes == 2 ? .rgb48 : .rgb24,
      controls: live, encoding: VideoOptions.encoding(of: source))
    var frameTimeline = timeline.map {
      FrameTimeline($0, fps: max(source.frameRate, 1), state: state)
    }
    let style: VideoProgress.Style =
      arguments.flag("json") ? .json : console.errorIsTerminal ? .line : .none
    var progress = VideoProgress(
      console: console,
      expectedFrames: frameAt != nil ? 1 : VideoOptions.expectedFrames(of: source, in: span),
      style: style)
    /// Renders one frame into its output buffer; false when the state leaves it unchanged.
    func render(_ frame: VideoTranscoder.Frame) throws -> Bool {
      if let state = try frameTimeline?.stateChange(atTime: frame.time) { live.set(state) }
      // An identity frame goes to the encoder as decoded, sparing it the round trip through RGB.
      guard
        !renderer.cache.plan(for: live.snapshot().state, encoding: renderer.encoding).recipe
          .isIdentity
      else {
        return false
      }
      do {
        try renderer.render(frame.input, into: frame.output)
        return true
      } catch {
        throw RenderError("frame \(frame.index + 1) cannot be rendered: \(error)")
      }
    }
    // 8-bit colour-only frames are rendered on their planes in one pass (see YUVFrameRenderer).
    var planarRenderer: YUVFrameRenderer?
    transcoder.planarRender = { frame in
      if let state = try frameTimeline?.stateChange(atTime: frame.time) { live.set(state) }
      guard !renderer.cache.plan(for: live.snapshot().state).recipe.isIdentity else {
        return .unchanged
      }
      let format = frame.format
      let yuvRenderer =
        try planarRenderer
        ?? YUVFrameRenderer(
          layout: YUV420Layout(
            width: format.width, height: format.height, depth: format.depth,
            matrix: format.bt709 ? .bt709 : .bt601, range: format.fullRange ? .pc : .tv),
          controls: live, cache: renderer.cache)
      planarRenderer = yuvRenderer
      do {
        let input = zip(frame.input, frame.inputStrides).map { YUVPlane($0, stride: $1) }
        return try yuvRenderer.renderOnePass(
          input, into: frame.output, strides: frame.outputStrides) ? .rendered : .needsRGB
      } catch {
        throw RenderError("frame \(frame.index + 1) cannot be rendered: \(error)")
      }
    }
    if let frameAt {
      var still: StillResult?
      func write(_ pixels: UnsafeRawBufferPointer) throws {
        still = try FrameStill.write(
          pixels, width: source.width, height: source.height, rotation: source.rotation,
          sampleAspect: source.sampleAspect, to: output, effort: effort)
      }
      if hdr {
        try transcoder.toneMappedFrame(at: frameAt, render: render, still: write)
      } else {
        try transcoder.frame(at: frameAt) { frame in
          try write(try render(frame) ? UnsafeRawBufferPointer(frame.output) : frame.input)
        }
      }
      let warnings = [transcoder.damage?.warning(path: input, framesWritten: nil)].compactMap { $0 }
      try progress.update(framesDone: 1)
      try progress.finish(output: output, warnings: warnings)
      for warning in warnings { console.err("framedial \(name): warning: \(warning)") }
      if style != .json, let still {
        console.out(
          "\(input) @ \(VideoOptions.timeText(frameAt)) → \(output) "
            + "(\(still.width)×\(still.height) \(still.format.rawValue))")
      }
      return ExitCode.success
    }
    try AtomicFile.write(to: output) { temporary in
      try transcoder.write(
        to: temporary, outputName: output, settings: settings, span: span, render: render,
        progress: { try? progress.update(framesDone: $0) })
    }
    // Damage --fail-on let through: one warning, after the progress line is gone.
    let warnings = [transcoder.damage?.warning(path: input, framesWritten: progress.framesDone)]
      .compactMap { $0 }
    try progress.finish(output: output, notes: notes, warnings: warnings)
    for warning in warnings { console.err("framedial \(name): warning: \(warning)") }
    if style != .json {
      let range =
        hdr
        ? (settings.hdr == .keep
          ? "\(source.dynamicRange.rawValue.uppercased()) kept, " : "tone-mapped to SDR, ") : ""
      console.out(
        "\(input) → \(output) (\(source.width)×\(source.height) \(range)\(codec.rawValue) "
          + "\(transcoder.outputPixelFormatName(for: settings)), \(progress.framesDone) frames)")
    }
    return ExitCode.success
  }
}
