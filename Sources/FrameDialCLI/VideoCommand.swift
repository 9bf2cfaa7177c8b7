import Controls
import FrameDial
import Video

/// `framedial video IN -o OUT`: a video file through the controls, frame by frame, on FFmpeg's libraries;
/// audio and subtitles copied, the output written atomically.
enum VideoCommand: Command {
  static let name = "video"
  static let summary =
    "Render a video file with the control values (frame times, colour tags, rotation and audio kept)."
  static let usage =
    "video IN -o OUT [--state FILE.json]… [--set KEY=VALUE]… [--timeline FILE.jsonl] [--crf N] "
    + "[--encoder-preset P] [--codec h264|hevc]"
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
        "h264 (libx264) or hevc (libx265); default: HEVC input stays HEVC, all else H.264"),
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let trap = SignalTrap.exitingAtOnce(command: name, console: console)
    defer { trap.cancel() }
    let (input, output) = try arguments.singleInputAndOutput(command: name, outputHint: "OUT.mp4")
    guard input != StandardStreams.dash, output != StandardStreams.dash else {
      throw UsageError("video reads and writes files, not standard input or output")
    }
    let state = try StateOptions.state(from: arguments)
    let settings = try VideoOptions.settings(from: arguments)
    let timeline = try arguments.value("timeline").map(FramesOptions.timeline(at:))
    guard !VideoOptions.samePath(input, output) else {
      throw UsageError("the output would replace the input (\(input)): name another file")
    }
    let transcoder = try VideoTranscoder(path: input)
    transcoder.planarConversion = VideoPlanarConversion.make
    let source = transcoder.source
    let codec = transcoder.codec(for: settings)
    guard VideoTranscoder.isAvailable(codec) else {
      throw RenderError(
        "\(codec.encoderName) is not available in this FFmpeg: choose --codec "
          + VideoCodec.allCases.filter(VideoTranscoder.isAvailable).map(\.rawValue)
          .joined(separator: " or "))
    }
    for stream in transcoder.skippedStreams {
      console.err("framedial \(name): warning: \(input): \(stream) is not copied")
    }
    try AtomicFile.createFolder(of: output)
    let live = LiveControlState(state)
    if transcoder.outputBitDepth(for: settings) < source.bitDepth {
      console.err(
        "framedial \(name): warning: \(codec.encoderName) has no \(source.bitDepth)-bit format here: "
          + "writing \(transcoder.outputPixelFormatName(for: settings))")
    }
    // Video deeper than 8 bits is rendered on 16-bit RGB, so its levels survive.
    let renderer = try FrameRenderer(
      width: source.width, height: source.height,
      pixelFormat: transcoder.rgbSampleBytes == 2 ? .rgb48 : .rgb24, controls: live)
    var frameTimeline = timeline.map {
      FrameTimeline($0, fps: max(source.frameRate, 1), state: state)
    }
    var progress = VideoProgress(
      console: console, expectedFrames: source.expectedFrames, shown: console.errorIsTerminal)
    try AtomicFile.write(to: output) { temporary in
      try transcoder.write(
        to: temporary, outputName: output, settings: settings,
        render: { frame in
          if let state = try frameTimeline?.stateChange(atTime: frame.time) { live.set(state) }
          // An identity frame goes to the encoder as decoded, sparing it the round trip through RGB.
          guard !renderer.cache.plan(for: live.snapshot().state).recipe.isIdentity else {
            return false
          }
          do {
            try renderer.render(frame.input, into: frame.output)
            return true
          } catch {
            throw RenderError("frame \(frame.index + 1) cannot be rendered: \(error)")
          }
        },
        progress: { progress.update(framesDone: $0) })
    }
    progress.finish()
    console.out(
      "\(input) → \(output) (\(source.width)×\(source.height) \(codec.rawValue) "
        + "\(transcoder.outputPixelFormatName(for: settings)), \(progress.framesDone) frames)")
    return ExitCode.success
  }
}
