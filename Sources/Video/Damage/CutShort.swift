import CFFmpeg

/// A video stream that ends before its index says it should: the index (an MP4's or MOV's sample
/// table, a Matroska file's cues) lists frames whose bytes lie past the end of the file, as in a copy
/// interrupted before its end.
public struct CutShort: Sendable, Equatable {
  /// The frames the index lists.
  public var framesListed: Int
  /// The frames whose bytes are wholly in the file.
  public var framesInFile: Int
  /// Seconds from the stream's first timestamp to the first frame missing (its decoding time: every
  /// frame shown before it is in the file).
  public var endsAt: Double
  /// ``endsAt`` in the stream's time base.
  var timestamp: Int64
}

extension InputFile {
  /// Where the video stream's index lists frames past the end of the file, or nil when every frame
  /// listed is in it (or the stream has no index with positions, or the file's size is unknown).
  var cutShort: CutShort? {
    let stream = videoStream
    let size = avio_size(context.pointee.pb)
    let entries = avformat_index_get_entries_count(stream)
    guard size > 0, entries > 0 else { return nil }
    var (listed, inside) = (0, 0)
    var missing: Int64?
    for index in 0..<entries {
      guard let entry = avformat_index_get_entry(stream, index)?.pointee,
        entry.flags & AVINDEX_DISCARD_FRAME == 0, entry.pos >= 0
      else { continue }
      listed += 1
      if entry.pos + Int64(entry.size) <= size {
        inside += 1
      } else if entry.timestamp != fd_no_pts() {
        missing = min(missing ?? entry.timestamp, entry.timestamp)
      }
    }
    guard inside < listed, let missing else { return nil }
    let start = stream.pointee.start_time == fd_no_pts() ? 0 : stream.pointee.start_time
    let seconds = max(0, Double(missing - start) * av_q2d(stream.pointee.time_base))
    return CutShort(
      framesListed: listed, framesInFile: inside, endsAt: seconds, timestamp: missing)
  }
}
