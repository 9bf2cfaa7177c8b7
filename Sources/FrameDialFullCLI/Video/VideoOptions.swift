import Foundation
import FrameDial
import FrameDialCLI
import Video
import Vips

/// The encoder options of `framedial video`, checked.
enum VideoOptions {
  /// `--crf`: the encoder's constant rate factor.
  static let crf = ValueOption.wholeNumber(
    "crf", "N", "constant rate factor 0 … 51, lower is better (default 18)",
    in: EncoderSettings.crfRange)

  /// `--encoder-preset`: x264's or x265's speed preset, named as they name it (in lower case).
  static let encoderPreset = ValueOption<String>.choice(
    "encoder-preset", value: "P", names: EncoderSettings.presets,
    "x264/x265 speed preset: ultrafast … medium (default) … veryslow", message: .oneOf,
    lookup: { EncoderSettings.presets.contains($0) ? $0 : nil })

  /// `--codec`: the video codec written.
  static let codec = ValueOption<VideoCodec>.choice(
    "codec", value: "CODEC", usage: ValueOption<VideoCodec>.names.joined(separator: "|"),
    "h264 (libx264, 8-bit 4:2:0) or hevc (libx265, 4:2:0, 10-bit Main 10 for input deeper "
      + "than 8 bits, tagged hvc1); default: hevc for HEVC or 10-bit (and deeper) input, "
      + "else h264",
    message: .either)

  /// `--hdr`: HDR input kept or tone-mapped.
  static let hdr = ValueOption<HDROutput>.choice(
    "hdr",
    "HDR (HLG, PQ) input: keep it HDR, HEVC Main 10 tagged in stream and container (default), "
      + "or tone-map it to SDR BT.709 8-bit; \(frameAt) stills of HDR are always sdr",
    message: .either)

  /// `--start`: where the span begins.
  static let start = time(
    "start", "T",
    "start at T (seconds, or HH:MM:SS.ms); the output's times start at 0; audio and subtitles "
      + "are cut at packet boundaries")

  /// `--duration`: how long the span lasts.
  static let duration = time("duration", "D", "keep D (seconds, or HH:MM:SS.ms) from the start")

  /// `--frame-at`: the one frame written as a still.
  static let frameAt = time(
    "frame-at", "T",
    "write only the frame shown at T, processed, as a still (-o still.png, .jpg …), upright "
      + "and with square pixels")

  /// `--timeline`: control events in the video's time.
  static let timeline = TimelineOption.option(
    "control events (JSON Lines); each frame takes the events at or before its own time")

  /// `--pixel-limit`, which for a video counts its frames' pixels.
  static let pixelLimit = PixelLimitOption.option.help(
    "refuse larger frames, as decoded or, for \(frameAt), as shown (default "
      + "\(LoadOptions.defaultPixelLimit))")

  /// `--json`.
  static let json = JSONOption.flag(
    "progress as JSON objects on standard output, one per line, and a done event")

  /// `--crf`, `--encoder-preset` and `--codec` as encoder settings.
  ///
  /// - Throws: `UsageError` naming the option and the value that is wrong.
  static func settings(from arguments: ParsedArguments) throws(UsageError) -> EncoderSettings {
    var settings = EncoderSettings()
    if let crf = try arguments[Self.crf] { settings.crf = crf }
    if let preset = try arguments[Self.encoderPreset] { settings.preset = preset }
    if let hdr = try arguments[Self.hdr] { settings.hdr = hdr }
    if let codec = try arguments[Self.codec] { settings.codec = codec }
    return settings
  }

  /// `--fail-on` as the video layer's level (default ``VideoFailOn/warning``).
  ///
  /// - Throws: `UsageError` naming the value when it is not a level.
  static func failOn(from arguments: ParsedArguments) throws(UsageError) -> VideoFailOn {
    switch try FailOnOption.level(from: arguments) {
    case .none: return .none
    case .truncated: return .truncated
    case .error: return .error
    case .warning: return .warning
    }
  }

  /// The encoding the controls work in for `source`'s frames: BT.2100 HLG or PQ (over the tagged
  /// primaries; BT.2020 unless tagged BT.709) for HDR video, sRGB for the rest.
  static func encoding(of source: VideoSource) -> ColourEncoding {
    let primaries: ColourEncoding.Primaries = source.primariesName == "bt709" ? .bt709 : .bt2020
    switch source.dynamicRange {
    case .sdr: return .sRGB
    case .hlg: return ColourEncoding(transfer: .hlg, primaries: primaries)
    case .pq: return ColourEncoding(transfer: .pq, primaries: primaries)
    }
  }

  /// The note for Dolby Vision input written as video: its RPU is not carried, so the output is the
  /// base layer's plain HDR (or SDR) picture; nil for other input or a still.
  static func dolbyVisionNote(_ source: VideoSource, input: String, settings: EncoderSettings)
    -> String?
  {
    guard let vision = source.hdrMetadata.dolbyVision else { return nil }
    let kind =
      settings.hdr == .sdr || !source.dynamicRange.isHDR
      ? "SDR" : "plain \(source.dynamicRange.rawValue.uppercased())"
    return "\(input) is Dolby Vision (profile \(vision.profile), compatibility id "
      + "\(vision.compatibilityID)): FFmpeg 5.1's encoder cannot carry its RPU, so the output is "
      + "\(kind) from its base layer"
  }

  /// `--start` and `--duration` as a span of the video (the whole video when neither is given).
  ///
  /// - Throws: `UsageError` naming the option and the value: not a time, negative, or a duration of 0.
  static func span(from arguments: ParsedArguments) throws(UsageError) -> TimeSpan {
    var span = TimeSpan()
    if let start = try arguments[Self.start] { span.start = start }
    if let duration = try arguments[Self.duration] {
      guard duration > 0 else {
        throw UsageError(
          "\(Self.duration) must be more than 0 s, not '\(arguments.text(Self.duration) ?? "")'")
      }
      span.duration = duration
    }
    return span
  }

  /// A time option, in seconds: `12`, `12.5`, `1:02.5` (minutes and seconds) or `01:02:03.250` (hours,
  /// minutes, seconds); a text that is not such a time is refused naming the option and the text.
  static func time(_ name: String, _ valueName: String, _ help: String) -> ValueOption<Double> {
    ValueOption(name, valueName, help) { text, option throws(UsageError) in
      guard let seconds = seconds(text) else {
        throw UsageError(
          "\(option) must be a time of 0 or more: seconds (12.5) or HH:MM:SS.ms (00:01:02.5), "
            + "not '\(text)'")
      }
      return seconds
    }
  }

  /// `text` as seconds (`SS.ms`, `MM:SS.ms` or `HH:MM:SS.ms`), nil when it is not a time of 0 or more.
  static func seconds(_ text: String) -> Double? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    let digits = Set("0123456789.")
    guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(digits.contains) }) else { return nil }
    guard let seconds = parts.last.flatMap({ Double($0) }) else { return nil }
    // Hours and minutes are whole; minutes and seconds after a colon stay below 60.
    let wholes = parts.dropLast().map { Int($0) }
    guard wholes.allSatisfy({ $0 != nil }) else { return nil }
    let units = wholes.compactMap { $0 }
    if parts.count > 1 {
      guard seconds < 60 else { return nil }
      if parts.count == 3, units[1] >= 60 { return nil }
    }
    let total = units.reduce(0) { $0 * 60 + Double($1) } * 60 + seconds
    return total.isFinite ? total : nil
  }

  /// Refuses a span or a `--frame-at` time that lies past the end of `source` (when its duration is
  /// known), naming the value.
  ///
  /// - Throws: `RenderError` naming the option, the value and the video's duration.
  static func check(span: TimeSpan, frameAt: Double?, of source: VideoSource, input: String) throws
  {
    guard let duration = source.duration else { return }
    let length = timeText(duration)
    if span.start > 0, span.start >= duration {
      throw RenderError(
        "\(Self.start) \(timeText(span.start)) is past the end of \(input), which lasts \(length)")
    }
    if let frameAt, frameAt > duration {
      throw RenderError(
        "\(Self.frameAt) \(timeText(frameAt)) is past the end of \(input), which lasts \(length)")
    }
  }

  /// The frames `span` of `source` holds, as well as can be told beforehand.
  static func expectedFrames(of source: VideoSource, in span: TimeSpan) -> Int? {
    guard !span.isWhole else { return source.expectedFrames }
    guard source.frameRate > 0 else { return nil }
    var seconds = span.duration ?? .infinity
    if let duration = source.duration { seconds = min(seconds, duration - span.start) }
    // A duration past the end of a video of unknown length tells nothing.
    let frames = (seconds * source.frameRate).rounded()
    guard frames.isFinite, frames < Double(Int.max) else { return nil }
    return max(0, Int(frames))
  }

  /// A display rotation as text: "90°".
  static func degreesText(_ degrees: Double) -> String {
    String(format: "%g°", (degrees * 10).rounded() / 10)
  }

  /// Seconds as text: "12.5 s".
  static func timeText(_ seconds: Double) -> String {
    String(format: "%g s", (seconds * 1000).rounded() / 1000)
  }
}
