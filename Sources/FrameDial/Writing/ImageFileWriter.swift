import HEIF
import Vips

/// Writes a finished image to a file in a format: HEIC and AVIF through libheif (``HEIFOutput``, HEIC
/// at an ``EncodingEffort``), every other format through libvips's savers. Every still FrameDial writes
/// (`apply`, `batch`, `preview`, `sweep`, `video --frame-at`) goes through
/// ``write(_:to:format:choice:effort:)``, so none reaches libvips's `heifsave` (slow for HEIC, and
/// unable to write at all with libheif 1.19, which refuses a writer result without a message).
enum ImageFileWriter {
  /// Writes `image` to `path` as `format` at `choice`'s quality; `effort` sets the HEIC encoder and
  /// is ignored by other formats, and `auxiliary` pictures (an HDR gain map) are written beside a
  /// HEIC's or AVIF's primary image (other formats cannot hold them: none is given for them).
  ///
  /// - Throws: `VipsError` when the image cannot be computed or written (libheif's failures carry its
  ///   message).
  static func write(
    _ image: Image, to path: String, format: ImageFormat, choice: QualityChoice,
    effort: EncodingEffort, auxiliary: [HEIFAuxiliaryPicture] = []
  ) throws {
    guard format == .heic || format == .avif else {
      try image.write(to: path, format: format, options: choice.saveOptions)
      return
    }
    do {
      try HEIFOutput.write(
        image, to: path, format: format, choice: choice, effort: effort, auxiliary: auxiliary)
    } catch let error as HEIFError {
      throw VipsError(error.message)
    }
  }

  /// Draws a picture from `input` with `draw` and writes it atomically to `output` (its extension
  /// picks the format, written at FrameDial's default quality; `effort` for HEIC): the file path
  /// `preview` and `sweep` share. Returns the layout `draw` gives with the picture.
  ///
  /// - Throws: ``RenderError`` naming `output` when its format is unknown or it is the input; naming
  ///   `input` when it is damaged (see ``DecodeVerdict``) or the picture cannot be written. A failure
  ///   leaves no file at `output`.
  static func writeDrawn<Layout>(
    from input: String, to output: String, load: LoadOptions, effort: EncodingEffort,
    draw: () throws -> (image: Image, layout: Layout)
  ) throws -> Layout {
    guard let format = ImageFormat(path: output) else {
      throw RenderError("\(output): unknown output format; use an extension such as .png or .jpg")
    }
    try OutputTarget.check(output, input: input)
    let mark = Vips.errorMark()
    let drawn = try DecodeVerdict.naming(input, load: load, draw)
    try AtomicFile.write(to: output) { temporary in
      do {
        try write(
          drawn.image, to: temporary, format: format,
          choice: QualityChoice(format: format, requested: nil), effort: effort)
      } catch let error as VipsError {
        throw RenderError.writing(
          output, from: input, temporary: temporary, failure: error, load: load)
      }
      try DecodeVerdict.confirm(input, since: mark, load: load)
    }
    return drawn.layout
  }
}
