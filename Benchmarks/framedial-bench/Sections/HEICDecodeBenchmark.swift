import Foundation
import FrameDialCLI
import FrameDialFullCLI
import HEIF
import Measurement

#if canImport(Glibc)
  import Glibc
#endif

/// One decoder's times over the HEIC decode section's photos.
struct HEICDecodeResult: Sendable, Codable {
  /// The HEVC decoder (`libde265`, `FFmpeg`).
  var decoder: String
  /// Decodes timed (photos × rounds).
  var decodes: Int
  /// Wall seconds and CPU seconds (user + system, every thread of the process) a decode.
  var wall: Summary
  var cpu: Summary
}

/// The batch section's 12-megapixel HEICs decoded in process, one at a time, by libheif to 8-bit RGB
/// with each HEVC decoder in turn: libheif's libde265 plugin and FFmpeg's decoder
/// (``HEVCDecoding/useFFmpeg()``). The rest of the decode (libheif's parsing and its Y′CbCr to RGB
/// conversion) is the same for both.
struct HEICDecodeBenchmark {
  var options: BenchmarkOptions
  var progress: (String) -> Void

  /// How the photos were made, for the report.
  static let inputDescription =
    "the batch section's HEICs: its first \(BatchBenchmark.heicImages) 4000×3000 photos written by "
    + "`framedial batch --format heic --quality 90` (one coded picture each, 4:4:4)"

  func run() throws -> [HEICDecodeResult] {
    defer { HEVCDecoding.useFFmpeg() }
    let batch = BatchBenchmark(options: options, progress: progress)
    let photos = try batch.generateHEICInputs(
      BatchBenchmark.framedialBinary(),
      from: Array(try batch.generateInputs().prefix(BatchBenchmark.heicImages)))
    let decoders = Decoder.allCases
    let rounds = options.quick ? 2 : 5
    var wall: [Decoder: [Double]] = [:]
    var cpu: [Decoder: [Double]] = [:]
    progress("heic-decode: \(photos.count) photos × \(rounds) rounds, each decoder in turn")
    // Not timed: the files into the page cache, each decoder's code into memory.
    for decoder in decoders {
      decoder.choose()
      blackHole(try HEIFFile(path: photos[0]).decodePrimary())
    }
    for round in 0..<rounds {
      for photo in photos {
        for index in decoders.indices {
          let decoder = decoders[(index + round) % decoders.count]
          decoder.choose()
          let file = try HEIFFile(path: photo)
          let startCPU = Timing.processCPUSeconds()
          let seconds = try Timing.measure { blackHole(try file.decodePrimary()) }
          cpu[decoder, default: []].append(Timing.processCPUSeconds() - startCPU)
          wall[decoder, default: []].append(seconds)
        }
      }
    }
    return decoders.compactMap { decoder in
      guard let wall = Summary(wall[decoder] ?? []), let cpu = Summary(cpu[decoder] ?? []) else {
        return nil
      }
      return HEICDecodeResult(decoder: decoder.rawValue, decodes: wall.count, wall: wall, cpu: cpu)
    }
  }

  /// The two HEVC decoders libheif is given in turn.
  enum Decoder: String, CaseIterable {
    case libde265
    case ffmpeg = "FFmpeg"

    /// Makes this decoder libheif's HEVC decoder.
    func choose() {
      switch self {
      case .libde265: HEVCDecoderPlugin.withdraw()
      case .ffmpeg: HEVCDecoding.useFFmpeg()
      }
    }
  }
}
