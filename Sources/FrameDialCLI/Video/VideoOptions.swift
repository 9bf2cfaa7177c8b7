import Foundation
import FrameDial
import Video

/// The encoder options of `framedial video`, checked.
enum VideoOptions {
  /// `--crf`, `--encoder-preset` and `--codec` as encoder settings.
  ///
  /// - Throws: `UsageError` naming the option and the value that is wrong.
  static func settings(from arguments: ParsedArguments) throws(UsageError) -> EncoderSettings {
    var settings = EncoderSettings()
    if let crf = try arguments.int("crf", in: EncoderSettings.crfRange) { settings.crf = crf }
    if let preset = arguments.value("encoder-preset") {
      guard EncoderSettings.presets.contains(preset) else {
        throw UsageError(
          "--encoder-preset must be one of \(EncoderSettings.presets.joined(separator: ", ")), "
            + "not '\(preset)'")
      }
      settings.preset = preset
    }
    if let hdr = try hdrOutput(from: arguments) { settings.hdr = hdr }
    if let name = arguments.value("codec") {
      guard let codec = VideoCodec(rawValue: name.lowercased()) else {
        throw UsageError("--codec must be h264 or hevc, not '\(name)'")
      }
      settings.codec = codec
    }
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

  /// `--hdr keep|sdr`, nil when it is not given.
  ///
  /// - Throws: `UsageError` naming the value when it is neither.
  static func hdrOutput(from arguments: ParsedArguments) throws(UsageError) -> HDROutput? {
    guard let text = arguments.value("hdr") else { return nil }
    guard let hdr = HDROutput(rawValue: text.lowercased()) else {
      throw UsageError("--hdr must be keep or sdr, not '\(text)'")
    }
    return hdr
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
    if let start = try seconds(of: "start", in: arguments) { span.start = start }
    if let duration = try seconds(of: "duration", in: arguments) {
      guard duration > 0 else {
        throw UsageError(
          "--duration must be more than 0 s, not '\(arguments.value("duration") ?? "")'")
      }
      span.duration = duration
    }
    return span
  }

  /// The time option `name` in seconds: `12`, `12.5`, `1:02.5` (minutes and seconds) or `01:02:03.250`
  /// (hours, minutes, seconds); nil when it is not given.
  ///
  /// - Throws: `UsageError` naming the option and the value when it is not such a time.
  static func seconds(of name: String, in arguments: ParsedArguments) throws(UsageError) -> Double?
  {
    guard let text = arguments.value(name) else { return nil }
    guard let seconds = seconds(text) else {
      throw UsageError(
        "--\(name) must be a time of 0 or more: seconds (12.5) or HH:MM:SS.ms (00:01:02.5), "
          + "not '\(text)'")
    }
    return seconds
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
        "--start \(timeText(span.start)) is past the end of \(input), which lasts \(length)")
    }
    if let frameAt, frameAt > duration {
      throw RenderError(
        "--frame-at \(timeText(frameAt)) is past the end of \(input), which lasts \(length)")
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
