/// Damage that decoding a video met and its ``VideoFailOn`` level let through (see
/// ``VideoTranscoder/damage``): what a caller warns about when it writes the result anyway.
public struct VideoDamage: Sendable, Equatable {
  /// Frames the decoder concealed errors in, marked corrupt, or lost with a packet it refused, as
  /// FFmpeg tells them (0 when it only said something, or the stream only ends early).
  public var damagedFrames: Int
  /// Seconds from the stream's first timestamp to the first damaged frame, nil when none was.
  public var firstDamage: Double?
  /// What FFmpeg's decoder or demuxer said first ("FFmpeg (h264): …"), or nil.
  public var firstMessage: String?
  /// How many lines they said in all.
  public var messages: Int
  /// Seconds from the stream's first timestamp to where it ends early, nil when it does not.
  public var cutAt: Double?
  /// Where the index says the stream ends early, when it says so.
  public var cutShort: CutShort?

  /// The warning's text, naming `path`: where the stream ends early and how many of the frames its
  /// index lists were written (`framesWritten`; nil: how many the file holds), then how many frames
  /// were damaged and where the first is, with what FFmpeg said first.
  public func warning(path: String, framesWritten: Int?) -> String {
    var parts: [String] = []
    if let cutAt {
      var part = "cut short at \(VideoTranscoder.secondsText(cutAt))"
      if let cutShort {
        part +=
          framesWritten.map {
            ": \($0) of the \(cutShort.framesListed) frames its index lists written"
          }
          ?? ": it holds \(cutShort.framesInFile) of the \(cutShort.framesListed) frames its index lists"
      }
      parts.append(part)
    }
    if let firstDamage {
      let first = VideoTranscoder.secondsText(firstDamage)
      switch damagedFrames {
      case 0: parts.append("damage reported from \(first), written as FFmpeg decoded it")
      case 1: parts.append("1 damaged frame at \(first), written as FFmpeg decoded it")
      default:
        parts.append(
          "\(damagedFrames) damaged frames, the first at \(first), written as FFmpeg decoded them")
      }
    }
    var text = "\(path): " + parts.joined(separator: "; ")
    if let firstMessage {
      text += " (\(firstMessage)" + (messages > 1 ? ", and \(messages - 1) more)" : ")")
    }
    return text
  }
}
