import Foundation
import JPEG

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
  /// every machine. Beyond what the loader itself refuses at `options.failOn`:
  /// - `.truncated` and `.error` also refuse a JPEG whose compressed data stops early (libjpeg's
  ///   "premature end of data segment", which libjpeg only warns about, filling the rest with grey);
  /// - `.warning` refuses any message the decoder raised while decoding the picture: every libjpeg
  ///   warning ("Corrupt JPEG data: bad Huffman code", "… extraneous bytes before marker …", "found
  ///   marker … instead of RST…") means damaged compressed data that libjpeg concealed.
  public static func verifyDecoding(_ path: String, options: LoadOptions = LoadOptions()) throws {
    var decode = options
    decode.sequential = true
    decode.autoRotate = false
    try Vips.withOneThread {
      let mark = ErrorJournal.mark()
      try Image(contentsOf: path, options: decode).decodeEveryPixel()
      let messages = ErrorJournal.messages(since: mark)
      switch options.failOn {
      case .none:
        return
      case .truncated, .error:
        if let truncated = messages.first(where: { message in
          truncationWarnings.contains { message.localizedCaseInsensitiveContains($0) }
        }) {
          throw VipsError("cannot decode the image: \(truncated)")
        }
      case .warning:
        if let first = messages.first {
          throw VipsError("cannot decode the image: \(first)")
        }
        try verifyJPEGData(path)
      }
    }
  }

  /// The metadata field set on a JPEG decoded by FrameDial's own libjpeg decoder, which reads the data
  /// to its end and has already stopped at every warning ``LoadOptions/FailOn/warning`` refuses.
  static let jpegDataCheckedField = "framedial-jpeg-data-checked"

  /// True when this image (or the image it was made from) was decoded from a JPEG whose data was read
  /// to its end with every libjpeg warning refused.
  public var isJPEGDataChecked: Bool {
    (try? int(Self.jpegDataCheckedField)) == 1
  }

  /// Throws "cannot decode the image: …" with libjpeg's first warning when the file at `path` is a JPEG
  /// whose compressed data libjpeg finds damaged when read to its end; returns quietly for a clean JPEG
  /// and for any other file.
  ///
  /// libvips stops reading a JPEG at its last row, so damage libjpeg notices only after it ("Corrupt
  /// JPEG data: 4 extraneous bytes before marker 0xd9", left behind by a damaged stream that decoded
  /// into a wrong picture) never reaches it. This reads the data again without producing a picture,
  /// at about half the cost of a decode.
  public static func verifyJPEGData(_ path: String) throws {
    let file = try CheckedFile(opening: path)
    var start = [UInt8](repeating: 0, count: 3)
    guard pread(file.descriptor, &start, 3, 0) == 3, start == [0xFF, 0xD8, 0xFF] else { return }
    let bytes = try contents(of: file, name: path)
    guard let warning = JPEGData.firstWarning(bytes) else { return }
    throw VipsError("cannot decode the image: \(warning)")
  }
}
