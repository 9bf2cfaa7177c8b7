import Foundation

extension Image {
  /// libjpeg's warnings that mean the compressed data stops early. libjpeg fills the rest with grey and
  /// libvips passes that as a warning; FrameDial counts it as truncation.
  static let truncationWarnings = ["premature end of data segment"]

  /// Decodes every pixel of the file at `path` on one libvips thread and throws when it is damaged by
  /// the measure of `options.failOn`: the error reading its header (which names the file), or "cannot
  /// decode the image: …" with the decoder's message.
  ///
  /// With several threads libvips 8.14 can lose a decoder's error: its thread pool reads its error flag
  /// before waiting for its last workers (fixed in libvips 8.15.4), and its tile caches hand a failed
  /// strip out as black pixels. On one thread every error is reported, so this verdict is the same on
  /// every machine. A JPEG whose compressed data stops early (libjpeg's "premature end of data segment")
  /// counts as truncated unless `failOn` is `.none`.
  public static func verifyDecoding(_ path: String, options: LoadOptions = LoadOptions()) throws {
    var decode = options
    decode.sequential = true
    decode.autoRotate = false
    try Vips.withOneThread {
      let mark = ErrorJournal.mark()
      try Image(contentsOf: path, options: decode).decodeEveryPixel()
      guard options.failOn != .none else { return }
      let warnings = ErrorJournal.messages(since: mark)
      if let truncated = warnings.first(where: { message in
        truncationWarnings.contains { message.localizedCaseInsensitiveContains($0) }
      }) {
        throw VipsError("cannot decode the image: \(truncated)")
      }
    }
  }
}
