import Foundation
import HEIF
import Measurement
import TestSupport
import Vips

/// What keeping an HDR photo's gain map costs: `framedial apply` of a 12-megapixel HDR HEIC to HEIC,
/// gain map kept (the default), against the same command with `--hdr-photo drop` (the same photo
/// written without its gain map), each a fresh process, in turns; unedited (the map copied) and
/// edited (exposure, white balance, contrast and saturation: the map edited with the photo).
struct HDRPhotoBenchmark {
  var options: BenchmarkOptions
  var progress: (String) -> Void

  /// How the HDR photo is made, for the report.
  static let inputDescription =
    "hdr.heic: the batch section's first 4000×3000 photo written as a HEIC (quality 90, 4:4:4) by "
    + "libheif with a 2000×1500 HDR gain map of Apple's type (the photo's luminance at 1/32, enlarged "
    + "to half the photo's size, highlights brightened, shadows 0: smooth, as an iPhone's map is; "
    + "an iPhone 13 Pro Max or 14 stores it at half size too) and an Apple maker note giving a "
    + "headroom of 1.72 stops"

  /// The edit of the second pair.
  static let edit = [
    "--set", "ev=0.3", "--set", "wb=tungsten", "--set", "contrast=1.2", "--set", "saturation=1.3",
  ]

  func run() throws -> [CommandPairResult] {
    let framedial = try BatchBenchmark.framedialBinary()
    let photo = try makeHDRPhoto()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-hdr-photo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = [("kept", "", [String]()), ("edited", ", edited", Self.edit)]
    let pairs = cases.map { file, name, edit in
      CommandPairs.Pair(
        name: "apply hdr.heic to HEIC\(name), gain map kept",
        framedial: (
          framedial, ["apply", photo, "-o", "\(folder.path)/\(file).heic", "--overwrite"] + edit
        ),
        anchor: (
          framedial,
          [
            "apply", photo, "-o", "\(folder.path)/dropped.heic", "--overwrite", "--hdr-photo",
            "drop",
          ]
            + edit
        ))
    }
    let rounds = options.quick ? 3 : 7
    progress("hdr-photo: \(rounds) rounds, kept and dropped in turns, unedited and edited")
    let results = try CommandPairs.time(
      pairs, rounds: rounds, warmUpRounds: 1, folder: folder.path)
    for (file, _, _) in cases {
      let output = folder.appendingPathComponent("\(file).heic").path
      guard
        try HEIFFile(path: output).decodeAuxiliaryImage(
          type: HEIFAuxiliaryImage.appleHDRGainMapType)
          != nil
      else { throw ChildProcessError("hdr-photo: \(output) has no HDR gain map") }
    }
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
      .appendingPathComponent("framedial-bench-hdr-photo-v3")
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
      metadata: HEIFMetadata(exif: AppleMakerNotes.hdrPhotoEXIF), auxiliary: [map])
    try FileManager.default.moveItem(atPath: temporary, toPath: path)
    return path
  }
}
