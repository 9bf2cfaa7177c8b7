import Controls
import FrameDial
import FrameDialCLI
import RowKernels
import Video
import Vips

/// `framedial video IN -o OUT`: a video file through the controls, frame by frame, on FFmpeg's libraries;
/// audio and subtitles copied, the output written atomically.
enum VideoCommand: ExitingAtOnceCommand {
  static let name = "video"
  static let summary =
    "Render a video file with the control values (frame times, colour tags, rotation and audio kept)."
  /// `-o OUT`.
  static let output = OutputOption.option(
    "OUT", "the video to write: .mp4, .mov, .mkv … (its folder is created if missing)")
  static let synopsis = Usage(
    forms: [.words("IN"), .option(output, short: true)] + StateOptions.usage + [
      .optional(VideoOptions.timeline), .optional(VideoOptions.crf),
      .optional(VideoOptions.encoderPreset), .optional(VideoOptions.codec),
      .optional(VideoOptions.hdr), .optional(VideoOptions.start), .optional(VideoOptions.duration),
      .optional(FailOnOption.option), .optional(VideoOptions.json),
    ],
    [
      .words("IN"), .option(VideoOptions.frameAt), .option(output, "STILL.png", short: true),
      .optional(EffortOption.option), .optional(FailOnOption.option),
    ] + StateOptions.usage)
  static let parser = ArgumentParser(
    options: [
      output, VideoOptions.timeline, VideoOptions.crf, VideoOptions.encoderPreset,
      VideoOptions.codec, VideoOptions.hdr, VideoOptions.start, VideoOptions.duration,
      VideoOptions.frameAt, EffortOption.option, VideoOptions.pixelLimit, FailOnOption.option,
      VideoOptions.json, OverwriteOption.option,
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let (input, output) = try arguments.singleInputAndOutput(command: name, outputHint: "OUT.mp4")
    guard input != StandardStreams.dash, output != StandardStreams.dash else {
      throw UsageError("video reads and writes files, not standard input or output")
    }
    let state = try StateOptions.controlState(from: arguments)
    let settings = try VideoOptions.settings(from: arguments)
    let span = try VideoOptions.span(from: arguments)
    let frameAt = try arguments[VideoOptions.frameAt]
    let pixelLimit = try PixelLimitOption.limit(from: arguments)
    let failOn = try VideoOptions.failOn(from: arguments)
    if frameAt != nil {
      guard span.isWhole else {
        throw UsageError(
          "\(VideoOptions.frameAt) writes one frame: \(VideoOptions.start) and "
            + "\(VideoOptions.duration) do not apply")
      }
      guard ImageFormat(path: output) != nil else {
        throw UsageError(
          "\(VideoOptions.frameAt) writes a still: name a .png, .jpg, .webp, .tif or .heic output, "
            + "not '\(output)'"
        )
      }
    } else if arguments.given(EffortOption.option) {
      throw UsageError(
        "\(EffortOption.option) sets the encoder of a \(VideoOptions.frameAt) HEIC still; a "
          + "video's is \(VideoOptions.encoderPreset)")
    }
    let effort = try arguments[EffortOption.option] ?? .standard
    if frameAt == nil, let problem = VideoTranscoder.containerProblem(outputName: output) {
      throw UsageError("\(output): \(problem)")
    }
    let timeline = try arguments[VideoOptions.timeline]
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
      try arguments[VideoOptions.hdr] == .keep
    {
      throw UsageError(
        "\(VideoOptions.frameAt) writes an 8-bit still, which cannot hold HDR: stills of HDR video "
          + "are tone-mapped to SDR (\(VideoOptions.hdr) sdr, the default for "
          + "\(VideoOptions.frameAt))")
    }
    let codec = transcoder.codec(for: settings)
    guard frameAt != nil || VideoTranscoder.isAvailable(codec) else {
      throw RenderError(
        "\(codec.encoderName) is not available in this FFmpeg: choose \(VideoOptions.codec) "
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
      arguments[VideoOptions.json] ? .json : console.errorIsTerminal ? .line : .none
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
    // Colour-only frames are rendered on their planes in one pass (see YUVFrameRenderer), HDR
    // frames tone-mapped to SDR on the way when the output is SDR.
    var planarRenderer: YUVFrameRenderer?
    transcoder.planarRender = { frame in
      if let state = try frameTimeline?.stateChange(atTime: frame.time) { live.set(state) }
      let toneMapper = frame.toneMapper
      guard toneMapper != nil || !renderer.cache.plan(for: live.snapshot().state).recipe.isIdentity
      else {
        return .unchanged
      }
      let yuvRenderer =
        try planarRenderer
        ?? YUVFrameRenderer(
          layout: VideoPlanarConversion.layout(of: frame.format), controls: live,
          cache: renderer.cache, encoding: renderer.encoding)
      planarRenderer = yuvRenderer
      do {
        let input = zip(frame.input, frame.inputStrides).map { YUVPlane($0, stride: $1) }
        let rendered =
          if let toneMapper {
            try yuvRenderer.renderOnePass(
              input, into: frame.output, strides: frame.outputStrides, then: toneMapper,
              outputLayout: VideoPlanarConversion.layout(of: frame.outputFormat))
          } else {
            try yuvRenderer.renderOnePass(input, into: frame.output, strides: frame.outputStrides)
          }
        return rendered ? .rendered : .needsRGB
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
