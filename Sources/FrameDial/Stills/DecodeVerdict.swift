import Raw
import Vips

/// Gives a damaged input the same verdict whatever libvips's thread count.
///
/// libvips 8.14 can lose a decoder's error when several of its threads compute, and then hands the lost
/// strips out as black pixels (see ``Vips/Image/verifyDecoding(_:options:)``); the decoder's message is
/// still raised. So a renderer takes a ``Vips/ErrorMark`` before reading its input and, once its output
/// is written but before it is put in place, calls ``confirm(_:since:load:)``: when libvips raised any
/// message meanwhile (a lost error, a libjpeg warning, or another thread's failure), the input is decoded
/// again on one thread, where no error is lost, and that decides. At ``Vips/LoadOptions/FailOn/warning``
/// a JPEG libvips decoded is also read to its end (``Vips/Image/verifyJPEGData(_:)``): libvips stops at
/// its last row, before the damage libjpeg notices only there.
enum DecodeVerdict {
  /// Throws a ``RenderError`` naming `input` when libvips raised a message since `mark` and `input`
  /// proves damaged when decoded on one thread, or when `input` is a JPEG whose data libjpeg warns
  /// about and `load` refuses warnings; returns quietly otherwise. `decoded`, the picture read from
  /// `input` (or one made from it), spares the JPEG a second reading when FrameDial's own decoder
  /// already read its data to the end.
  static func confirm(
    _ input: String, decoded: Image? = nil, since mark: Vips.ErrorMark, load: LoadOptions
  ) throws {
    if Vips.errorsRaised(since: mark) {
      if let damage = damage(of: input, load: load) { throw damage }
      return
    }
    guard load.failOn == .warning, decoded?.isJPEGDataChecked != true else { return }
    do {
      try Image.verifyJPEGData(input)
    } catch let error as VipsError {
      throw RenderError("\(input): \(error.message)")
    }
  }

  /// Runs `body`, which computes pixels from `input` (auto white balance reads them before anything is
  /// written); a libvips error it throws becomes the input's damage when the input proves damaged, or
  /// else a ``RenderError`` naming the input.
  static func naming<T>(_ input: String, load: LoadOptions, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as VipsError {
      throw damage(of: input, load: load) ?? RenderError("\(input): \(error.message)")
    }
  }

  /// The error for `input` when it is damaged (decoded on one thread by `load`'s measure), else nil. A
  /// camera raw is developed whole by LibRaw before libvips sees its pixels, so it has no strip to lose
  /// and is never handed to a libvips loader here either.
  static func damage(of input: String, load: LoadOptions) -> RenderError? {
    if RawStill.identify(input) != nil { return nil }
    do {
      try Image.verifyDecoding(input, options: load)
      return nil
    } catch let error as VipsError {
      let message = error.message
      return RenderError(message.hasPrefix("\(input): ") ? message : "\(input): \(message)")
    } catch {
      return RenderError("\(input): \(error)")
    }
  }
}
