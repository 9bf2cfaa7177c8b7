import Foundation
import Vips

/// Writes one video frame as a still image, the way a player shows it: the sample aspect ratio applied
/// (square pixels: the width is scaled, the height kept) and the display rotation turned into the pixels
/// (a still has no display matrix), tagged sRGB, written atomically as stills are.
public enum FrameStill {
  /// Writes the packed 8-bit RGB frame `pixels` (`width × height`) to `output` in the format its
  /// extension names. `rotation` is the display rotation in degrees counter-clockwise (FFmpeg's sign;
  /// rounded to quarter turns), `sampleAspect` the pixels' width over their height, `quality` the
  /// quality of a lossy format (nil: FrameDial's default for it), `effort` how hard the HEIC encoder
  /// works (other formats ignore it).
  ///
  /// - Throws: ``RenderError`` naming `output` when its format is unknown or it cannot be written; a
  ///   failure leaves no file at `output`.
  @discardableResult
  public static func write(
    _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, rotation: Double?,
    sampleAspect: Double, to output: String, quality: Int? = nil,
    effort: EncodingEffort = .standard
  ) throws -> StillResult {
    guard let format = ImageFormat(path: output) else {
      throw RenderError(
        "\(output): unknown still format; use an extension such as .png, .jpg, .webp, .tif, .heic")
    }
    do {
      var image = try Image(
        wrapping: pixels, layout: FrameLayout(width: width, height: height, bands: 3))
      if sampleAspect.isFinite, sampleAspect > 0, abs(sampleAspect - 1) > 1e-3 {
        image = try image.resized(by: sampleAspect, vscale: 1)
      }
      let orientation = exifOrientation(rotation: rotation ?? 0)
      if orientation != 1 { image = try image.settingOrientation(orientation).autoRotated() }
      let tagged = try image.editingMetadata { editor in
        editor.setInt("orientation", 1)
        if !SRGBProfile.data.isEmpty { editor.setBlob(Image.iccProfileField, SRGBProfile.data) }
      }
      let choice = QualityChoice(format: format, requested: quality)
      try AtomicFile.write(to: output) { temporary in
        try ImageFileWriter.write(
          tagged, to: temporary, format: format, choice: choice, effort: effort)
      }
      return StillResult(
        outputPath: output, width: tagged.width, height: tagged.height, format: format)
    } catch let error as VipsError {
      throw RenderError("\(output): cannot write the still: \(error.message)")
    }
  }

  /// The EXIF orientation that turns coded pixels upright for a display rotation of `degrees`
  /// counter-clockwise: 1 (none), 6 (a quarter turn clockwise), 3 (half a turn), 8 (a quarter turn
  /// counter-clockwise).
  static func exifOrientation(rotation degrees: Double) -> Int {
    guard degrees.isFinite else { return 1 }
    let clockwiseTurns = ((Int((-degrees / 90).rounded()) % 4) + 4) % 4
    return [1, 6, 3, 8][clockwiseTurns]
  }
}
