import Foundation
import HEIF
import TestSupport
import Testing
import Video
import Vips

/// A picture FFmpeg's HEVC decoder finds damaged is refused by default, through libheif and through
/// libvips's `heifload` alike, with the decoder's own words; ``HEVCDecoderPlugin/damagedPictures`` set
/// to ``HEVCDecoderPlugin/DamagedPictures/concealed`` (what `--fail-on none` sets) decodes it to a
/// picture of its size. Each decode keeps its own decoder's lines, however many run at once.
@Suite(.serialized) struct HEICConcealedDamageTests {
  /// Flipped variants of a 640×480 HEIC written into `folder` that the reference finds damaged by
  /// `ffmpeg`'s decode (not by their framing), with the text of `ffmpeg`'s first error for each.
  static func damagedPictures(in folder: URL, count: Int) throws -> [(path: String, reason: String)]
  {
    let png = folder.appendingPathComponent("photo.png").path
    let heic = folder.appendingPathComponent("photo.heic")
    try HEICPictures.photo(png, width: 640, height: 480)
    try HEICPictures.run("heif-enc", ["-q", "70", png, "-o", heic.path])
    let bytes = try Data(contentsOf: heic)
    let (mdat, size) = try GridHEIC.find("mdat", in: bytes)
    let variants = DamagedVariants(
      bytes: bytes, picture: mdat + 8..<mdat + size, stem: "photo", ext: "heic")
    var found: [(String, String)] = []
    for variant in variants.flipped(count: 60, seed: 0xC0_C3A1) where found.count < count {
      let path = folder.appendingPathComponent(variant.name)
      try variant.bytes.write(to: path)
      guard let damage = try HEVCReference.damage(of: path.path, scratch: folder),
        damage.hasPrefix("ffmpeg: "),
        let line = damage.split(separator: "\n").first, let close = line.firstIndex(of: "]")
      else { continue }
      // "ffmpeg: [hevc @ 0x…] The cu_qp_delta 40 is outside the valid range [-26, 25]."
      let reason = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
      if !found.contains(where: { $0.1 == reason }) { found.append((path.path, reason)) }
    }
    return found
  }

  @Test func damagedPictureIsRefusedByDefaultAndDecodesWhenConcealed() throws {
    let folder = try CLIRunner.scratchFolder("heic-conceal")
    defer { try? FileManager.default.removeItem(at: folder) }
    let damaged = try Self.damagedPictures(in: folder, count: 1)
    let (path, reason) = try #require(damaged.first)
    // The process's decoder stays as this test sets it (see HEVCReference.withDecoderHeld).
    try HEVCReference.withDecoderHeld {
      try HEVCStillDecoder().register()
      #expect(HEVCDecoderPlugin.damagedPictures == .refused)
      // Refused, with the decoder's own words, by libheif …
      #expect {
        try HEIFFile(path: path).decodePrimary()
      } throws: { error in
        "\(error)".contains("FFmpeg's HEVC decoder: \(reason)")
      }
      // … and by libvips's heifload, which reads the same libheif.
      #expect {
        try Image(contentsOf: path).decodeEveryPixel()
      } throws: { error in
        "\(error)".contains(
          "cannot decode the image: damaged HEIF: FFmpeg's HEVC decoder: \(reason)")
      }
      HEVCDecoderPlugin.damagedPictures = .concealed
      defer { HEVCDecoderPlugin.damagedPictures = .refused }
      let concealed = try HEIFFile(path: path).decodePrimary()
      #expect((concealed.width, concealed.height, concealed.bands) == (640, 480, 3))
      #expect(try concealed.samples().count == 640 * 480 * 3)
      let image = try Image(contentsOf: path)
      try image.decodeEveryPixel()
      #expect((image.width, image.height) == (640, 480))
      // Strict decoding asked of libheif still refuses it.
      #expect(throws: HEIFError.self) { try HEIFFile(path: path).decodePrimary(strict: true) }
    }
  }

  /// The error decoding `path` gives ("" when it decodes).
  static func decodeError(_ path: String) -> String {
    do {
      _ = try HEIFFile(path: path).decodePrimary()
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test(arguments: [1, 4])
  func decodesAtOnceKeepTheirOwnDecodersWords(threads: Int) throws {
    let folder = try CLIRunner.scratchFolder("heic-conceal-threads")
    defer { try? FileManager.default.removeItem(at: folder) }
    let damaged = try Self.damagedPictures(in: folder, count: 3)
    #expect(damaged.count == 3)
    try HEVCReference.withDecoderHeld {
      try HEVCStillDecoder(threads: threads).register()
      defer { try? HEVCStillDecoder().register() }
      // One at a time: with one thread a picture, the decoder says what ffmpeg says (slice threads
      // decode a picture's rows from their own entry points, and may meet other errors, or none).
      let alone = damaged.map { Self.decodeError($0.path) }
      if threads == 1 {
        for (error, picture) in zip(alone, damaged) {
          #expect(error.contains("FFmpeg's HEVC decoder: \(picture.reason)"), "\(error)")
        }
      }
      // Many at once, each file's decoder logging from its own threads: each keeps its own words.
      let errors = Slots(count: damaged.count * 8)
      DispatchQueue.concurrentPerform(iterations: damaged.count * 8) { index in
        errors.set(Self.decodeError(damaged[index % damaged.count].path), at: index)
      }
      for (index, error) in errors.all.enumerated() {
        #expect(error == alone[index % damaged.count])
      }
    }
  }
}

/// Texts that threads set by index, under a lock the thread sanitizer sees (a pthread mutex; the futex
/// of Synchronization's `Mutex` is invisible to it), for this suite's run under `.ci/run`'s sanitizer.
private final class Slots: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [String]

  init(count: Int) { values = Array(repeating: "", count: count) }

  func set(_ value: String, at index: Int) { lock.withLock { values[index] = value } }

  var all: [String] { lock.withLock { values } }
}
