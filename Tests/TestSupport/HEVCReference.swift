import Foundation
import HEIF
import Synchronization
import Video

/// The strict reference verdicts on a HEIC's coded pictures, from decoders other than the one FrameDial
/// decodes with: the `ffmpeg` command with FFmpeg's HEVC decoder asked to stop at its first error
/// (`-err_detect explode -xerror`), run on each picture's own bitstream (the NAL units libheif hands its
/// decoder, written as an Annex B stream), and libheif's own libde265 with strict decoding. Before
/// either decodes, the NAL units must be whole and hold none of the byte sequences ITU-T H.265 7.4.2.2
/// forbids in every NAL unit (00 00 00, 00 00 01, 00 00 02; a last byte 00), which a stream written
/// with them could not even carry.
///
/// The pictures are taken from libheif through ``HEVCDecoderPlugin`` (its grid tiles, its alpha image,
/// its primary), so the container is read by libheif alone; the plugin is process-wide, so a suite that
/// uses this must be `.serialized` and the others must not decode HEIC in this process meanwhile.
package enum HEVCReference {
  /// Held by every test that changes the process's HEVC decoder for libheif (which decoder is
  /// registered, whether damaged pictures are concealed), for as long as it relies on it: suites of
  /// different targets run at the same time in one process. A pthread mutex, which the thread
  /// sanitizer sees.
  package static func withDecoderHeld<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(decoderLock)
    defer { pthread_mutex_unlock(decoderLock) }
    return try body()
  }

  nonisolated(unsafe) private static let decoderLock: UnsafeMutablePointer<pthread_mutex_t> = {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
    return lock
  }()

  /// A decoder that keeps the NAL units of every picture libheif hands it, then decodes them with
  /// FFmpeg's decoder, concealing damage so that libheif goes on to the next picture.
  struct RecordingDecoder: HEVCPictureDecoder {
    let inner = HEVCStillDecoder()
    let pictures: Recorded

    func decodePicture<Result>(
      _ nalUnits: UnsafeRawBufferPointer, strict: Bool, _ body: (HEVCPicture) throws -> Result
    ) throws -> Result {
      pictures.coded.withLock { $0.append(Data(nalUnits)) }
      return try inner.decodePicture(nalUnits, strict: false, body)
    }
  }

  /// The pictures a ``RecordingDecoder`` was handed.
  final class Recorded: Sendable {
    let coded = Mutex<[Data]>([])
  }

  /// Why the HEIC at `path` is damaged by the reference's measure — libheif cannot read it, a picture's
  /// NAL units run past its end or hold forbidden bytes, `ffmpeg` reports an error in a picture, or no
  /// picture can be decoded at all — or nil when it is intact. `scratch` holds the bitstreams `ffmpeg`
  /// reads.
  package static func damage(of path: String, scratch: URL) throws -> String? {
    try withDecoderHeld { try heldDamage(of: path, scratch: scratch) }
  }

  private static func heldDamage(of path: String, scratch: URL) throws -> String? {
    let file: HEIFFile
    do {
      file = try HEIFFile(path: path)
    } catch {
      return "libheif: \(error)"
    }
    let recorded = Recorded()
    let refusal = HEVCDecoderPlugin.damagedPictures
    HEVCDecoderPlugin.damagedPictures = .concealed
    defer {
      HEVCDecoderPlugin.damagedPictures = refusal
      try? HEVCStillDecoder().register()
    }
    try HEVCDecoderPlugin.register(
      RecordingDecoder(pictures: recorded), name: HEVCStillDecoder.name)
    var decodeError: String?
    do {
      _ = try file.decodePrimary()
    } catch {
      decodeError = "\(error)"
    }
    // One stream of every picture, each with its own parameter sets: ffmpeg stops at the first error.
    var stream = Data()
    for (index, picture) in recorded.coded.withLock({ $0 }).enumerated() {
      guard let units = annexB(picture) else {
        return "picture \(index): NAL units cut short or holding forbidden bytes"
      }
      stream += units
    }
    if !stream.isEmpty {
      let bitstream = scratch.appendingPathComponent("pictures-\(UUID().uuidString).hevc")
      try stream.write(to: bitstream)
      defer { try? FileManager.default.removeItem(at: bitstream) }
      let result = try VideoClips.run(
        "ffmpeg",
        [
          "-hide_banner", "-nostdin", "-v", "error", "-err_detect", "explode", "-xerror", "-f",
          "hevc", "-i", bitstream.path, "-f", "null", "-",
        ])
      if result.status != 0 || !result.errors.isEmpty {
        return "ffmpeg: \(result.errors) (exit \(result.status))"
      }
    }
    return decodeError.map { "no picture decoded: \($0)" }
  }

  /// What libheif's libde265 says of the HEIC at `path` with strict decoding (FFmpeg's decoder
  /// withdrawn meanwhile): its error, or nil when it decodes the picture.
  package static func libde265Damage(of path: String) -> String? {
    HEVCDecoderPlugin.withdraw()
    defer { try? HEVCStillDecoder().register() }
    do {
      _ = try HEIFFile(path: path).decodePrimary(strict: true)
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// `nalUnits` (each after its length as 4 big-endian bytes) as an Annex B stream (each after the
  /// start code 00 00 00 01); nil when a length runs past the end, or a NAL unit holds bytes H.265
  /// forbids.
  package static func annexB(_ nalUnits: Data) -> Data? {
    let bytes = [UInt8](nalUnits)
    var stream = Data()
    var offset = 0
    while offset < bytes.count {
      guard bytes.count - offset >= 4 else { return nil }
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      guard length <= bytes.count - offset - 4 else { return nil }
      let unit = Array(bytes[offset + 4..<offset + 4 + length])
      if unit.last == 0 { return nil }
      for index in unit.indices.dropLast(2)
      where unit[index] == 0 && unit[index + 1] == 0 && unit[index + 2] <= 2 {
        return nil
      }
      stream += [0, 0, 0, 1] + unit
      offset += 4 + length
    }
    return stream.isEmpty ? nil : stream
  }
}
