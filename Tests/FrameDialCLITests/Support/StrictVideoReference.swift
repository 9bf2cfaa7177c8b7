import Foundation
import TestSupport

/// FFmpeg's own verdict on a video file, for the damage tests: the strict reference decoder
/// (`ffmpeg -v error -threads 1 -xerror -err_detect explode -i FILE -f null -`: a non-zero exit or
/// any error line is damage) and a stream with fewer decodable frames than its index declares.
///
/// One decoder thread: with FFmpeg's frame threads, whether a frame its error concealment repaired
/// is marked corrupt (which `-xerror` stops on) depends on which thread wins a race, so the same file
/// is called damaged on one run and intact on the next.
enum StrictVideoReference {
  /// Why the reference calls `url` damaged (its first error line, its exit status, or the frames it
  /// decodes against those declared), or nil when it decodes cleanly.
  static func damage(_ url: URL) throws -> String? {
    let strict = try VideoClips.run(
      "ffmpeg",
      [
        "-v", "error", "-threads", "1", "-xerror", "-err_detect", "explode", "-i", url.path,
        "-f", "null", "-",
      ])
    let line = strict.errors.split(separator: "\n").first.map(String.init)
    if strict.status != 0 || line != nil { return line ?? "ffmpeg exits \(strict.status)" }
    let (declared, decoded) = try frameCounts(url)
    if let declared, decoded < declared { return "\(decoded) of \(declared) frames decode" }
    return nil
  }

  /// The frames `url`'s video stream declares (nil when it does not say) and those ffprobe decodes.
  static func frameCounts(_ url: URL) throws -> (declared: Int?, decoded: Int) {
    let result = try VideoClips.run(
      "ffprobe",
      [
        "-v", "quiet", "-select_streams", "v:0", "-count_frames", "-show_entries",
        "stream=nb_frames,nb_read_frames", "-of", "csv=p=0", url.path,
      ])
    let fields = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
      .split(separator: ",").map { Int($0) }
    return (fields.first ?? nil, (fields.count > 1 ? fields[1] : nil) ?? 0)
  }

  /// The video packets of `url` in file order: byte offset, size and decoding time in seconds.
  static func packets(_ url: URL) throws -> [(position: Int, size: Int, time: Double)] {
    let result = try VideoClips.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos,size,dts_time",
        "-of", "csv=p=0", url.path,
      ])
    return result.output.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: ",").map(String.init)
      guard fields.count == 3, let time = Double(fields[0]), let size = Int(fields[1]),
        let position = Int(fields[2])
      else { return nil }
      return (position, size, time)
    }.sorted { $0.position < $1.position }
  }

  /// The byte range that holds `url`'s video packets (the picture data).
  static func pictureRange(_ url: URL) throws -> Range<Int> {
    let packets = try packets(url)
    let start = packets.map(\.position).min() ?? 0
    let end = packets.map { $0.position + $0.size }.max() ?? start
    return start..<end
  }
}
