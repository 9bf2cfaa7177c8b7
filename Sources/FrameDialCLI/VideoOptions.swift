import Foundation
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
    if let name = arguments.value("codec") {
      guard let codec = VideoCodec(rawValue: name.lowercased()) else {
        throw UsageError("--codec must be h264 or hevc, not '\(name)'")
      }
      settings.codec = codec
    }
    return settings
  }

  /// True when the two paths name the same file (an existing one, through links), or are equal.
  static func samePath(_ first: String, _ second: String) -> Bool {
    let (one, two) = (URL(fileURLWithPath: first), URL(fileURLWithPath: second))
    return one.standardizedFileURL.resolvingSymlinksInPath().path
      == two.standardizedFileURL.resolvingSymlinksInPath().path
  }
}
