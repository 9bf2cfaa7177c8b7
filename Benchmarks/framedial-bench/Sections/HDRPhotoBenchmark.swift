import Foundation
import HEIF
import Measurement
import Vips

/// What keeping an HDR photo's gain map costs: `framedial apply` of a 12-megapixel HDR HEIC to HEIC,
/// gain map kept (the default), against the same command with `--hdr-photo drop` (the same photo
/// written without its gain map), each a fresh process, in turns.
struct HDRPhotoBenchmark {
  var options: BenchmarkOptions
  var progress: (String) -> Void

  /// How the HDR photo is made, for the report.
  static let inputDescription =
    "hdr.heic: the batch section's first 4000×3000 photo written as a HEIC (quality 90, 4:4:4) by "
    + "libheif with a 2000×1500 HDR gain map of Apple's type (the photo's luminance at 1/32, enlarged "
    + "to half the photo's size, highlights brightened, shadows 0: smooth, as an iPhone's map is; "
    + "an iPhone 13 Pro Max or 14 stores it at half size too)"

  func run() throws -> [CommandPairResult] {
    let framedial = try BatchBenchmark.framedialBinary()
    let photo = try makeHDRPhoto()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-hdr-photo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let kept = folder.appendingPathComponent("kept.heic").path
    let dropped = folder.appendingPathComponent("dropped.heic").path
    let pair = CommandPairs.Pair(
      name: "apply hdr.heic to HEIC, gain map kept",
      framedial: (framedial, ["apply", photo, "-o", kept, "--overwrite"]),
      anchor: (framedial, ["apply", photo, "-o", dropped, "--overwrite", "--hdr-photo", "drop"]))
    let rounds = options.quick ? 3 : 7
    progress("hdr-photo: \(rounds) rounds, kept and dropped in turns")
    let results = try CommandPairs.time(
      [pair], rounds: rounds, warmUpRounds: 1, folder: folder.path)
    return results.map { result in
      var result = result
      result.framedialCommand = result.framedialCommand.replacingOccurrences(
        of: photo, with: "hdr.heic")
      result.anchorCommand = result.anchorCommand.replacingOccurrences(of: photo, with: "hdr.heic")
      return result
    }
  }

  /// The HDR HEIC, made once and kept in the temporary folder for later runs.
  private func makeHDRPhoto() throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-hdr-photo-v2")
    let path = folder.appendingPathComponent("hdr.heic").path
    if FileManager.default.fileExists(atPath: path) { return path }
    let source = try BatchBenchmark(options: options, progress: progress).generateInputs()[0]
    progress("hdr-photo: making \(path)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let image = try Image(contentsOf: source)
    let picture = try HEIFPicture(width: image.width, height: image.height, hasAlpha: false)
    try picture.withPixels { rows, stride in
      try image.render(
        into: rows,
        layout: FrameLayout(width: image.width, height: image.height, bands: 3, rowStride: stride))
    }
    // A gain map is smooth (an iPhone 13 Pro Max's: a mean of 37 codes, 1.3 codes of detail finer
    // than a 2-pixel blur): the luminance at 1/32, enlarged to half the photo's size, its highlights
    // brightened and its shadows at 0.
    let (width, height) = (image.width / 2, image.height / 2)
    let luminance = try image.colourspace("b-w").resized(by: 1.0 / 32)
      .resized(
        by: Double(width) / Double(image.width / 32),
        vscale: Double(height) / Double(image.height / 32)
      )
      .thumbnailed(width: width, height: height)
      .linear([1.5], [-150], uchar: true)
    let map = HEIFAuxiliaryPicture(
      type: HEIFAuxiliaryImage.appleHDRGainMapType, width: luminance.width,
      height: luminance.height, samples: try luminance.pixelBytes())
    let temporary = path + ".partial"
    try picture.write(
      to: temporary, encoding: HEIFEncoding(quality: 90, preset: .ultrafast, chroma: .yuv444),
      metadata: HEIFMetadata(), auxiliary: [map])
    try FileManager.default.moveItem(atPath: temporary, toPath: path)
    return path
  }
}
